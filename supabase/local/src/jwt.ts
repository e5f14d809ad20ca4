import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';

/** The claims Supabase puts in an access token; PostgREST and RLS read them. */
export interface AccessTokenClaims extends JWTPayload {
  role: string;
  sub?: string;
  aud?: string;
  email?: string;
  phone?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  session_id?: string;
  aal?: 'aal1' | 'aal2';
  amr?: { method: string; timestamp: number }[];
  is_anonymous?: boolean;
}

export type TokenCheck =
  | { ok: true; claims: AccessTokenClaims }
  /** `message` is the verifier's own words, which Storage passes on to the caller. */
  | { ok: false; reason: 'expired' | 'invalid'; message: string };

const encoder = new TextEncoder();

export function signToken(secret: string, claims: AccessTokenClaims): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(encoder.encode(secret));
}

/** Verifies an HS256 token; `alg: none` and every other algorithm are refused. */
export async function verifyToken(secret: string, token: string): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] });
    if (typeof payload.role !== 'string')
      return { ok: false, reason: 'invalid', message: 'The token has no role claim' };
    return { ok: true, claims: payload as AccessTokenClaims };
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid JWT';
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired', message };
    return { ok: false, reason: 'invalid', message };
  }
}

export function bearerToken(authorization: string | null): string | undefined {
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim() || undefined;
}
