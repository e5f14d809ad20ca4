/** Unsigned JWT-shaped tokens for the impersonation tests (the portal never checks signatures). */
const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function fakeToken(claims: Record<string, unknown>): string {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.c2lnbmF0dXJl`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

export const staffToken = () =>
  fakeToken({ sub: 'staff-1', role: 'authenticated', exp: inAnHour() });

export const impersonationToken = (overrides: Record<string, unknown> = {}) =>
  fakeToken({
    sub: 'user-1',
    role: 'authenticated',
    exp: inAnHour(),
    impersonator: 'staff-1',
    impersonation_id: 42,
    ...overrides,
  });
