export * from './text.ts';
export * from './tags.ts';
export * from './alias.ts';
export * from './url.ts';
export * from './expiry.ts';
export * from './utm.ts';
export * from './password.ts';
export * from './files.ts';
