/** Two-factor and password-change forms (settings/security, login/2FA/*). */
import { z } from 'zod';
import { confirmationMatches, newPasswordFields } from './auth.ts';
import { parseTotpCode, TOTP_CODE_FORMAT, TOTP_CODE_REQUIRED } from '../validation/totp.ts';

export { TOTP_CODE_FORMAT, TOTP_CODE_REQUIRED };

// Not in the spec; phrased like its other field messages.
export const BACKUP_CODE_REQUIRED = 'The backup code field is required.';
export const BACKUP_CODE_FORMAT = 'The backup code must be 10 letters or digits, like ABCDE-23456.';
export const CURRENT_PASSWORD_REQUIRED = 'The current password field is required.';

/** How many backup codes one generation yields (the database's app.backup_code_settings()). */
export const BACKUP_CODE_COUNT = 10;

/** A TOTP code as authenticator apps show it: 6 digits, spaces allowed ("123 456"). */
export const totpCodeField = z.string({ error: TOTP_CODE_REQUIRED }).transform((value, ctx) => {
  const parsed = parseTotpCode(value);
  if ('code' in parsed) return parsed.code;
  ctx.addIssue({ code: 'custom', message: parsed.error });
  return z.NEVER;
});

export const totpCodeSchema = z.object({ code: totpCodeField });
export type TotpCodeInput = z.input<typeof totpCodeSchema>;

/**
 * A backup code: 10 letters or digits, typed in any case with an optional dash or spaces;
 * normalised to the shown form XXXXX-XXXXX (the database normalises the same way).
 */
export const backupCodeSchema = z.object({
  code: z
    .string({ error: BACKUP_CODE_REQUIRED })
    .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
    .superRefine((value, ctx) => {
      if (value === '') ctx.addIssue({ code: 'custom', message: BACKUP_CODE_REQUIRED });
      else if (!/^[A-Z0-9]{10}$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: BACKUP_CODE_FORMAT });
      }
    })
    .transform((value) => `${value.slice(0, 5)}-${value.slice(5)}`),
});
export type BackupCodeInput = z.input<typeof backupCodeSchema>;

/** settings/security: change the password (current one, new one of at least 6, confirmation). */
export const passwordChangeSchema = z
  .object({
    current_password: z
      .string({ error: CURRENT_PASSWORD_REQUIRED })
      .min(1, { error: CURRENT_PASSWORD_REQUIRED }),
    ...newPasswordFields,
  })
  .superRefine(confirmationMatches);
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;
