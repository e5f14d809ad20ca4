import { json, type TestBackend } from '../../test/backend.ts';
import { sessionBody, type TestServices } from '../../test/services.ts';

/** Scripts of Auth's MFA answers for the two-factor component tests. */
export const mfaUser = { id: '6d0c4a43-3f4b-4f3e-9a53-0c1f3b7a9e10', email: 'ada@example.com' };
export const FACTOR_ID = '0b7c2c8e-6f0a-4a51-8f61-1d8f7f3c2a11';

export const verifiedFactor = {
  id: FACTOR_ID,
  friendly_name: 'Authenticator app',
  factor_type: 'totp',
  status: 'verified',
  created_at: '2026-11-22T00:00:00Z',
  updated_at: '2026-11-22T00:00:00Z',
};

/** A GoTrue session answer; `factors` go on its user. */
export function sessionWith(aal: 'aal1' | 'aal2', factors: unknown[]) {
  const body = sessionBody(mfaUser, { aal });
  return { ...body, user: { ...body.user, factors } };
}

/** Signs the services' client in with the password only, while a verified factor exists. */
export async function startPasswordOnlySession(
  { services }: TestServices,
  backend: TestBackend,
): Promise<void> {
  const body = sessionWith('aal1', [verifiedFactor]);
  backend.on('GET', '/auth/v1/user', () => json(body.user));
  const { error } = await services.supabase.auth.setSession({
    access_token: body.access_token,
    refresh_token: body.refresh_token,
  });
  if (error) throw error;
}

/** An error as GoTrue answers it. */
export const goTrueError = (status: number, errorCode: string, msg: string) =>
  json({ code: status, error_code: errorCode, msg }, { status });

/** Challenge and verify of FACTOR_ID: `accept` decides per code. */
export function scriptTotpVerify(backend: TestBackend, accept: (code: string) => boolean) {
  backend.on('POST', `/auth/v1/factors/${FACTOR_ID}/challenge`, () =>
    json({ id: 'challenge-1', type: 'totp', expires_at: Math.floor(Date.now() / 1000) + 300 }),
  );
  backend.on('POST', `/auth/v1/factors/${FACTOR_ID}/verify`, async (request) => {
    const { code } = (await request.json()) as { code: string };
    if (!accept(code))
      return goTrueError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
    const body = sessionWith('aal2', [verifiedFactor]);
    backend.on('GET', '/auth/v1/user', () => json(body.user));
    return json(body);
  });
}
