export * from './time.ts';
export * from './constants.ts';
export * from './subscriptions.ts';
