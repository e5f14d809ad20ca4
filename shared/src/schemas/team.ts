/** Team profile and membership forms (the team pages; create_team, update_team, invitations). */
import { z } from 'zod';
import { TEAM_ROLES } from '../constants.ts';
import { ERROR_CODES } from '../errors.ts';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../slug.ts';
import { emailField, requiredText } from './rules.ts';

export const teamProfileSchema = z.object({
  name: requiredText(ERROR_CODES.name_required.message).max(255, {
    error: 'The name must not be greater than 255 characters.',
  }),
  slug: z
    .string()
    .trim()
    .max(SLUG_MAX_LENGTH, {
      error: `The slug must not be greater than ${SLUG_MAX_LENGTH} characters.`,
    })
    .regex(SLUG_PATTERN, { error: ERROR_CODES.slug_invalid.message }),
});
export type TeamProfile = z.output<typeof teamProfileSchema>;

export const teamInvitationSchema = z.object({
  email: emailField(),
  role: z.enum(TEAM_ROLES, { error: ERROR_CODES.role_invalid.message }),
});
export type TeamInvitation = z.output<typeof teamInvitationSchema>;
