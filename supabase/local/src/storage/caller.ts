import { bearerToken, verifyToken, type AccessTokenClaims } from '../jwt.ts';
import { storageErrors } from './errors.ts';

/** The database roles a Storage caller can act as; anything else in a JWT is refused. */
export const CALLER_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** Who is asking, as Storage's JWT plugin decides it. */
export interface Caller {
  role: CallerRole;
  claims: AccessTokenClaims;
  /** The raw token, exposed to SQL as request.jwt. */
  jwt: string;
  /** The JWT `sub`: objects and buckets record it as their owner. */
  owner: string | undefined;
  /** False when no valid token was presented (only some routes let such callers through). */
  authenticated: boolean;
}

export const ANONYMOUS_CALLER: Caller = {
  role: 'anon',
  claims: { role: 'anon' },
  jwt: '',
  owner: undefined,
  authenticated: false,
};

function isCallerRole(role: string): role is CallerRole {
  return (CALLER_ROLES as readonly string[]).includes(role);
}

/**
 * Reads the caller from `Authorization: Bearer <jwt>`, falling back to the apikey header (what
 * supabase-js sends when nobody is signed in). An invalid token is refused with Storage's
 * AccessDenied carrying the verifier's message — unless `allowInvalid`, where Storage treats
 * the caller as an anonymous visitor instead (public-bucket reads).
 */
export async function identifyCaller(
  request: Request,
  jwtSecret: string,
  options: { allowInvalid?: boolean } = {},
): Promise<Caller> {
  const token = bearerToken(request.headers.get('authorization')) ?? request.headers.get('apikey');
  if (!token && options.allowInvalid) return ANONYMOUS_CALLER;
  const check = await verifyToken(jwtSecret, token ?? '');
  if (!check.ok) {
    if (options.allowInvalid) return ANONYMOUS_CALLER;
    throw storageErrors.accessDenied(check.message);
  }
  const { claims } = check;
  if (!isCallerRole(claims.role)) {
    throw storageErrors.accessDenied('Access denied: Invalid role', 403);
  }
  return { role: claims.role, claims, jwt: token ?? '', owner: claims.sub, authenticated: true };
}

/** Storage's service-role-only routes (e.g. emptying a bucket) answer 403 to anyone else. */
export function requireServiceRole(caller: Caller): void {
  if (caller.role !== 'service_role') {
    throw storageErrors.accessDenied('Access denied: Invalid role', 403);
  }
}
