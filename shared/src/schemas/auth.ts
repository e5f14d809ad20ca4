/** Login, register and password reset forms (app-shell 2 and 5). */
import { z } from 'zod';
import {
  PASSWORD_CONFIRMATION_MISMATCH,
  PASSWORD_REQUIRED,
  validatePassword,
} from '../validation/password.ts';
import { checkWith, emailField } from './rules.ts';

/** A new password: at least 6 characters. */
const newPassword = z.string({ error: PASSWORD_REQUIRED }).superRefine(checkWith(validatePassword));

/** Logging in checks only presence: the length rule applies when a password is chosen. */
export const loginSchema = z.object({
  email: emailField(),
  password: z.string({ error: PASSWORD_REQUIRED }).min(1, { error: PASSWORD_REQUIRED }),
});
export type LoginInput = z.input<typeof loginSchema>;

export const registerSchema = z.object({
  email: emailField(),
  password: newPassword,
});
export type RegisterInput = z.input<typeof registerSchema>;

/** password/reset: ask for the reset link. */
export const passwordResetRequestSchema = z.object({ email: emailField() });
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestSchema>;

/** A new password with its confirmation (password reset and password change). */
export const newPasswordFields = {
  password: newPassword,
  password_confirmation: z.string({ error: PASSWORD_REQUIRED }),
};

/** The confirmation must repeat the new password; the message goes on the confirmation. */
export function confirmationMatches(
  value: { password: string; password_confirmation: string },
  ctx: z.RefinementCtx,
): void {
  if (value.password !== value.password_confirmation) {
    ctx.addIssue({
      code: 'custom',
      message: PASSWORD_CONFIRMATION_MISMATCH,
      path: ['password_confirmation'],
    });
  }
}

/** password/reset/{token}: choose the new password. */
export const passwordResetSchema = z.object(newPasswordFields).superRefine(confirmationMatches);
export type PasswordResetInput = z.input<typeof passwordResetSchema>;

/** The confirm-password modal; its errors come from the password field. */
export const passwordConfirmSchema = z.object({
  password: z.string({ error: PASSWORD_REQUIRED }).min(1, { error: PASSWORD_REQUIRED }),
});
