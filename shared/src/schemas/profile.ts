/** Profile update (settings/profile). */
import { z } from 'zod';
import { validateProfilePhoto } from '../validation/files.ts';
import { fileMetaSchema } from './files.ts';
import { checkWith, emailField, requiredText } from './rules.ts';

export const NAME_REQUIRED = 'The name field is required.';
export const NAME_MAX_LENGTH = 255;
export const NAME_TOO_LONG = `The name must not be greater than ${NAME_MAX_LENGTH} characters.`;

export const profileUpdateSchema = z.object({
  name: requiredText(NAME_REQUIRED).max(NAME_MAX_LENGTH, { error: NAME_TOO_LONG }),
  email: emailField(),
  /** A new photo (png or jpg); omitted to keep the current one. */
  photo: fileMetaSchema.superRefine(checkWith(validateProfilePhoto)).optional(),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;
