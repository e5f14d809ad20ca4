import { userScope } from '../keys.ts';

/** API tokens of one account (the user's personal account or a team's) and its API credits. */
export const apiTokenKeys = {
  all: (userId: string) => [...userScope(userId), 'api-tokens'] as const,
  list: (userId: string, accountId: string) =>
    [...apiTokenKeys.all(userId), accountId, 'list'] as const,
  credits: (userId: string, accountId: string) =>
    [...apiTokenKeys.all(userId), accountId, 'credits'] as const,
};
