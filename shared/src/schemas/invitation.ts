/** Answering an organization or team invitation (link-creation 4 and 7). */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';

export const INVITATION_SOURCES = ['organization', 'team'] as const;
export const INVITATION_ANSWERS = ['accept', 'reject'] as const;
const INVITATION_INVALID = ERROR_CODES.invitation_not_found.message;

export const invitationAnswerSchema = z.object({
  invitation_id: z.uuid({ error: INVITATION_INVALID }),
  source: z.enum(INVITATION_SOURCES, { error: INVITATION_INVALID }),
  answer: z.enum(INVITATION_ANSWERS, { error: 'The answer must be accept or reject.' }),
});
export type InvitationAnswer = z.output<typeof invitationAnswerSchema>;
