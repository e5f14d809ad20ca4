export * from './bot-check.ts';
export * from './env.ts';
export * from './hcaptcha.ts';
export * from './whitelist.ts';
