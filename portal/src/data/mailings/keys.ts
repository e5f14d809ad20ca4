import { userScope } from '../keys.ts';

/** Whether the signed-in person receives product e-mails (profiles.status flag 8). */
export const mailingKeys = {
  mine: (userId: string) => [...userScope(userId), 'mailings'] as const,
};
