import * as OTPAuth from 'otpauth';
import { signedInClient } from './shell.ts';

/** Two-factor helpers the specs share: codes from a secret, and TOTP turned on through Auth. */

/**
 * The app's code `stepsAhead` 30-second steps from now: Auth accepts one step of clock skew,
 * and each sign-in below uses a later step than the one before (no code is used twice).
 */
export function totpCode(secret: string, stepsAhead = 0): string {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Turns TOTP on for a user the way the security page does (backup codes too); its secret. */
export async function enrollTotp(email: string, password: string): Promise<string> {
  const client = await signedInClient({ email, password });
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) throw enrolled.error;
  const { id, totp } = enrolled.data;
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: id,
    code: totpCode(totp.secret),
  });
  if (verified.error) throw verified.error;
  const codes = await client.rpc('generate_two_factor_backup_codes');
  if (codes.error) throw codes.error;
  await client.auth.signOut({ scope: 'local' });
  return totp.secret;
}
