import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import { signedInClient } from './auth-helpers.ts';

/** TOTP helpers of the auth contract tests (MFA, impersonation). */

/** Codes from an independent TOTP implementation, as an authenticator app would show them. */
export function authenticator(secret: string) {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
}

export async function enroll(client: SupabaseClient, friendlyName = 'Authenticator app') {
  const { data, error } = await client.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName,
    issuer: 'Shortlane',
  });
  if (error) throw error;
  return data;
}

/** A signed-in user with a verified TOTP factor, and the client holding their aal2 session. */
export async function userWithVerifiedFactor(label: string) {
  const signedIn = await signedInClient(label);
  const factor = await enroll(signedIn.client);
  const totp = authenticator(factor.totp.secret);
  const { error } = await signedIn.client.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totp.generate(),
  });
  if (error) throw error;
  return { ...signedIn, factor, totp };
}
