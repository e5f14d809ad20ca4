/**
 * Impersonation, the portal's side. The kiosk's kiosk-impersonate function mints an access
 * token for the user with two extra claims:
 *
 *   impersonator      the staff member's user id (the shell shows "Back To My Account")
 *   impersonation_id  the kiosk audit log row of the start
 *
 * The kiosk hands it over in this page's URL fragment (#impersonation_token=…), which browsers
 * never send to a server.
 */

export const IMPERSONATION_TOKEN_PARAM = 'impersonation_token';

export interface Impersonation {
  impersonator: string;
  impersonationId: number;
  userId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** The claims of an access token, read without checking its signature, or null. */
export function payloadOf(accessToken: string): Record<string, unknown> | null {
  const segment = accessToken.split('.')[1];
  if (!segment) return null;
  try {
    const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
      c.charCodeAt(0),
    );
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The impersonation an access token carries, or null. Read without checking the signature: the
 * server checks every request; the portal only decides what to show.
 */
export function impersonationOf(accessToken: string | null | undefined): Impersonation | null {
  const claims = accessToken ? payloadOf(accessToken) : null;
  if (!claims) return null;
  const { impersonator, impersonation_id, sub, exp } = claims;
  if (
    typeof impersonator !== 'string' ||
    typeof impersonation_id !== 'number' ||
    typeof sub !== 'string' ||
    typeof exp !== 'number'
  ) {
    return null;
  }
  return { impersonator, impersonationId: impersonation_id, userId: sub, expiresAt: exp };
}

/** The token in a URL fragment such as "#impersonation_token=…", or null. */
export function tokenFromFragment(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get(IMPERSONATION_TOKEN_PARAM);
  return token && token.split('.').length === 3 ? token : null;
}
