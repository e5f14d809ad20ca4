import { inject } from 'vitest';
import { signToken } from '../../local/src/jwt.ts';
// Brings global-setup's `stackEnv` typing for inject() into this program.
import type {} from '../../local/test/global-setup.ts';

/**
 * The kiosk tests talk to the stack the way the kiosk does: PostgREST and edge functions through
 * the gateway, with a user's JWT (or none). Tokens are minted with the stack's secret, as Auth
 * would mint them, for the seeded demo users or users a test created.
 */
export const env = inject('stackEnv');

/** Seeded demo users (supabase/seeds/10_accounts.sql). */
export const SEEDED = {
  staff: '00000000-0000-4000-8000-000000000105',
  free: '00000000-0000-4000-8000-000000000101',
  owner: '00000000-0000-4000-8000-000000000106',
} as const;

export function tokenFor(userId: string, extraClaims: Record<string, unknown> = {}) {
  return signToken(env.SUPABASE_JWT_SECRET, {
    sub: userId,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    exp: Math.floor(Date.now() / 1000) + 600,
    ...extraClaims,
  });
}

export interface Answer {
  status: number;
  body: unknown;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** A PostgREST request as `token`'s user, or anonymously with the anon key alone. */
export async function rest(
  path: string,
  { token, method = 'GET', body }: { token?: string; method?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${env.SUPABASE_URL}/rest/v1/${path}`, {
    method,
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
      prefer: 'return=representation',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answerOf(response);
}

export const rpc = (name: string, args: Record<string, unknown>, token?: string) =>
  rest(`rpc/${name}`, { method: 'POST', body: args, token });

/** An edge function through the gateway, with a bearer token (a user's, or the anon key). */
export async function callFunction(
  name: string,
  body: unknown,
  bearer: string | null,
  method = 'POST',
): Promise<Answer> {
  const response = await fetch(`${env.SUPABASE_URL}/functions/v1/${name}`, {
    method,
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return answerOf(response);
}
