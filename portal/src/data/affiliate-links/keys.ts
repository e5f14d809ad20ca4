import { userScope } from '../keys.ts';

/** Whether the signed-in person allows affiliate links (profiles.status flag 4 unset). */
export const affiliateLinkKeys = {
  mine: (userId: string) => [...userScope(userId), 'affiliate-links'] as const,
};
