import { userScope } from '../keys.ts';

/** Retargeting pixels: an account's, and the ones each link fires. */
export const pixelKeys = {
  all: (userId: string) => [...userScope(userId), 'pixels'] as const,
  account: (userId: string, accountId: string) =>
    [...pixelKeys.all(userId), 'account', accountId] as const,
  link: (userId: string, aliasId: string) => [...pixelKeys.all(userId), 'link', aliasId] as const,
};
