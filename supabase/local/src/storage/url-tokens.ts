import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { storageErrors } from './errors.ts';

/**
 * Signed-URL tokens, as Storage issues them: an HS256 JWT signed with the project's JWT secret,
 * holding the `bucket/key` it grants (`url`), its expiry, and a scope so a download token can
 * never be replayed as an upload token (nor the reverse).
 */

export type UrlScope = 'download' | 'upload';

export interface UrlTokenClaims {
  url: string;
  scope: UrlScope;
  /** Upload tokens only: who becomes the owner, and whether an existing object is replaced. */
  owner?: string;
  upsert?: boolean;
}

const encoder = new TextEncoder();

/** Storage's bounds for expiresIn: a whole number of seconds, at least one. */
export function assertValidExpiresIn(expiresIn: unknown): asserts expiresIn is number {
  if (
    typeof expiresIn !== 'number' ||
    !Number.isFinite(expiresIn) ||
    Math.floor(expiresIn) < 1 ||
    Math.floor(expiresIn) >
      Math.floor(Number.MAX_SAFE_INTEGER / 1000) - Math.floor(Date.now() / 1000)
  ) {
    throw storageErrors.invalidParameter('expiresIn');
  }
}

export function signUrlToken(
  secret: string,
  claims: UrlTokenClaims,
  expiresIn: number,
): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(`${Math.floor(expiresIn)}s`)
    .sign(encoder.encode(secret));
}

/**
 * Checks a token against the object it is presented for. A bad or expired JWT is Storage's
 * InvalidJWT with the verifier's words ('"exp" claim timestamp check failed'); a token for another
 * object or action is InvalidSignature.
 */
export async function verifyUrlToken(
  secret: string,
  token: string,
  expected: { url: string; scope: UrlScope },
): Promise<UrlTokenClaims & JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] }));
  } catch (error) {
    throw storageErrors.invalidJwt(error instanceof Error ? error.message : undefined);
  }
  // Tokens issued before scopes existed are told apart by the upsert claim only uploads carry.
  const scope = payload.scope ?? ('upsert' in payload ? 'upload' : 'download');
  if (scope !== expected.scope) {
    throw storageErrors.invalidSignature(`Token is not scoped for ${expected.scope}`);
  }
  if (payload.url !== expected.url) throw storageErrors.invalidSignature();
  if (typeof payload.exp !== 'number' || payload.exp * 1000 < Date.now()) {
    throw storageErrors.expiredSignature();
  }
  return payload as UrlTokenClaims & JWTPayload;
}
