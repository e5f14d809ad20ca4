/** The organization users page's invitation and the helpdesk's support request. */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';
import { emailField, requiredText } from './rules.ts';

export const organizationInvitationSchema = z.object({
  email: emailField(),
  roleId: z.uuid({ error: ERROR_CODES.role_invalid.message }),
});
export type OrganizationInvitation = z.output<typeof organizationInvitationSchema>;

/** The limits of public.support_requests. */
export const SUPPORT_SUBJECT_MAX = 200;
export const SUPPORT_MESSAGE_MAX = 5000;

export const supportRequestSchema = z.object({
  subject: requiredText('The subject field is required.').max(SUPPORT_SUBJECT_MAX, {
    error: `The subject must not be greater than ${SUPPORT_SUBJECT_MAX} characters.`,
  }),
  message: requiredText('The message field is required.').max(SUPPORT_MESSAGE_MAX, {
    error: `The message must not be greater than ${SUPPORT_MESSAGE_MAX} characters.`,
  }),
});
export type SupportRequestDraft = z.output<typeof supportRequestSchema>;
