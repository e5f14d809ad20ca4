import { userScope } from '../keys.ts';
import { scopeKey, type SubscriptionScope } from './scope.ts';

export const subscriptionStateKeys = {
  all: (userId: string) => [...userScope(userId), 'subscription-state'] as const,
  state: (userId: string, scope: SubscriptionScope) =>
    [...subscriptionStateKeys.all(userId), scopeKey(scope)] as const,
  preview: (userId: string, scope: SubscriptionScope, plan: string, interval: string) =>
    [...subscriptionStateKeys.state(userId, scope), 'preview', plan, interval] as const,
};
