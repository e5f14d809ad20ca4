import { HttpError } from './http.ts';

/** The database roles a caller's token may name; anything else never reaches `set role`. */
export const CALLER_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

export interface CallerClaims {
  role: CallerRole;
  sub?: string;
  aal?: string;
  [claim: string]: unknown;
}

export interface Caller {
  /** The raw `Authorization` header, to forward unchanged. */
  authorization: string;
  token: string;
  claims: CallerClaims;
}

const unauthorized = (message: string) => new HttpError(401, message, 'invalid_jwt');

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  return JSON.parse(
    new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))),
  );
}

const isRole = (value: unknown): value is CallerRole =>
  typeof value === 'string' && (CALLER_ROLES as readonly string[]).includes(value);

/**
 * Who is calling, from the bearer token. The signature is NOT checked here: the runtime checked
 * it before the request arrived (`verify_jwt`, on by default). A function deployed with
 * `verify_jwt = false` must not trust these claims.
 */
export function callerOf(request: Request): Caller {
  const authorization = request.headers.get('Authorization');
  if (!authorization) throw unauthorized('Missing authorization header');
  const match = authorization.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw unauthorized("Auth header is not 'Bearer {token}'");
  const token = match[1];
  const [, payload] = token.split('.');
  let claims: unknown;
  try {
    claims = payload ? decodeSegment(payload) : undefined;
  } catch {
    claims = undefined;
  }
  if (typeof claims !== 'object' || claims === null) throw unauthorized('Invalid JWT');
  const role = (claims as Record<string, unknown>).role;
  if (!isRole(role)) throw unauthorized('Invalid JWT');
  return { authorization, token, claims: claims as CallerClaims };
}
