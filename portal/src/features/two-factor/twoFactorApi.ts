import type { AuthError, Factor } from '@supabase/supabase-js';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { MESSAGES_2FA } from './messages.ts';

export { MESSAGES_2FA };

/** Auth's answer to a wrong or reused TOTP code (GoTrue error codes). */
const WRONG_CODE_ERRORS = new Set(['mfa_verification_failed', 'mfa_challenge_expired']);

function codeFailure(error: AuthError): string {
  return error.code && WRONG_CODE_ERRORS.has(error.code)
    ? MESSAGES_2FA.wrongCode
    : MESSAGES_2FA.failed;
}

/** The user's verified TOTP factors, as Auth lists them. */
export async function verifiedTotpFactors(supabase: PortalSupabase): Promise<Factor[]> {
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return data.totp;
}

/**
 * Raises the session to aal2 with a code of the user's (first verified) TOTP factor. Resolves
 * with the message to show, or null once verified.
 */
export async function verifyTotpCode(
  supabase: PortalSupabase,
  code: string,
): Promise<string | null> {
  let factors: Factor[];
  try {
    factors = await verifiedTotpFactors(supabase);
  } catch {
    return MESSAGES_2FA.failed;
  }
  const factor = factors[0];
  if (!factor) return MESSAGES_2FA.noFactor;
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  return error ? codeFailure(error) : null;
}

export type BackupCodeOutcome =
  { kind: 'consumed' } | { kind: 'refused'; message: string; attemptsLeft: number | null };

interface ConsumeAnswer {
  consumed: boolean;
  attempts_left: number;
}

function isConsumeAnswer(value: unknown): value is ConsumeAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    'consumed' in value &&
    typeof value.consumed === 'boolean' &&
    'attempts_left' in value &&
    typeof value.attempts_left === 'number'
  );
}

/**
 * Spends a backup code of the signed-in (aal1) user: the database removes their TOTP factors.
 * The caller then refreshes the session, so it no longer lists the factor (nor owes aal2).
 */
export async function consumeBackupCode(
  supabase: PortalSupabase,
  code: string,
): Promise<BackupCodeOutcome> {
  const { data, error, status } = await supabase
    .rpc('consume_two_factor_backup_code', { p_code: code })
    .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1');
  if (error) {
    if (status === 429) {
      return { kind: 'refused', message: MESSAGES_2FA.tooManyAttempts, attemptsLeft: 0 };
    }
    const message =
      error.message === 'two_factor_not_enabled' ? MESSAGES_2FA.noFactor : MESSAGES_2FA.failed;
    return { kind: 'refused', message, attemptsLeft: null };
  }
  if (!isConsumeAnswer(data)) {
    return { kind: 'refused', message: MESSAGES_2FA.failed, attemptsLeft: null };
  }
  if (!data.consumed) {
    const message =
      data.attempts_left === 0 ? MESSAGES_2FA.tooManyAttempts : MESSAGES_2FA.wrongBackupCode;
    return { kind: 'refused', message, attemptsLeft: data.attempts_left };
  }
  return { kind: 'consumed' };
}

/** New backup codes (replacing the earlier ones), shown once. Needs an aal2 session. */
export async function generateBackupCodes(supabase: PortalSupabase): Promise<string[]> {
  const { data, error } = await supabase.rpc('generate_two_factor_backup_codes');
  if (error) throw error;
  return data;
}

/** How many unused backup codes the user has left. */
export async function remainingBackupCodes(supabase: PortalSupabase): Promise<number> {
  const { data, error } = await supabase
    .rpc('two_factor_backup_codes_remaining')
    .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1');
  if (error) throw error;
  return data;
}

export interface TotpEnrollment {
  factorId: string;
  /** An SVG image of the otpauth:// URI. */
  qrCode: string;
  secret: string;
  uri: string;
}

/**
 * Starts a TOTP enrollment. Unverified factors left by an abandoned attempt are removed first:
 * Auth refuses a second factor under the same friendly name.
 */
export async function startTotpEnrollment(supabase: PortalSupabase): Promise<TotpEnrollment> {
  const { data: listed, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  for (const factor of listed.all) {
    if (factor.status !== 'verified') await supabase.auth.mfa.unenroll({ factorId: factor.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Authenticator app',
  });
  if (error) throw error;
  return {
    factorId: data.id,
    qrCode: data.totp.qr_code,
    secret: data.totp.secret,
    uri: data.totp.uri,
  };
}

/** Confirms an enrollment with the app's first code; the session is aal2 afterwards. */
export async function confirmTotpEnrollment(
  supabase: PortalSupabase,
  factorId: string,
  code: string,
): Promise<string | null> {
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  return error ? codeFailure(error) : null;
}

/** Turns 2FA off: removes every TOTP factor (the database then drops the backup codes). */
export async function disableTwoFactor(supabase: PortalSupabase): Promise<void> {
  const factors = await verifiedTotpFactors(supabase);
  for (const factor of factors) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
  // The session still names the removed factor until it is refreshed.
  const { error } = await supabase.auth.refreshSession();
  if (error) throw error;
}
