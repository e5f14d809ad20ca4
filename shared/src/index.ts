export * from './time.ts';
export * from './constants.ts';
export * from './subscriptions.ts';
export * from './orders.ts';
export * from './features.ts';
export * from './permissions.ts';
export * from './plans.ts';
export * from './credits.ts';
