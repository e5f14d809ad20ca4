import { json } from '../http.ts';

/**
 * GoTrue's three kinds of error answers. Clients that send `X-Supabase-Api-Version: 2024-01-01`
 * (supabase-js does) get `{ code, message }`; older ones get `{ code: <status>, error_code, msg }`.
 * OAuth-style errors are always `{ error, error_description }` with status 400.
 */

/** An error with an HTTP status, GoTrue's error code and its message (apierrors.HTTPError). */
export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AuthApiError';
  }
}

/** A password that fails the strength rules; answered as 422 weak_password with its reasons. */
export class WeakPasswordError extends Error {
  constructor(
    message: string,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = 'WeakPasswordError';
  }
}

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }
}

export const badRequest = (code: string, message: string) => new AuthApiError(400, code, message);
export const unauthorized = (code: string, message: string) => new AuthApiError(401, code, message);
export const forbidden = (code: string, message: string) => new AuthApiError(403, code, message);
export const notFound = (code: string, message: string) => new AuthApiError(404, code, message);
export const unprocessable = (code: string, message: string) =>
  new AuthApiError(422, code, message);
export const tooManyRequests = (code: string, message: string) =>
  new AuthApiError(429, code, message);
export const internalError = (message: string) =>
  new AuthApiError(500, 'unexpected_failure', message);

/** The duplicate-address message GoTrue uses in several places. */
export const DUPLICATE_EMAIL_MESSAGE = 'A user with this email address has already been registered';

const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = '2024-01-01';

/** True when the client asked for the 2024-01-01 error format (any later date counts too). */
function wantsModernErrors(request: Request): boolean {
  const requested = request.headers.get(API_VERSION_HEADER);
  if (!requested || !/^\d{4}-\d{2}-\d{2}$/.test(requested)) return false;
  return requested >= API_VERSION_2024;
}

export function errorResponse(error: unknown, request: Request): Response {
  const modern = wantsModernErrors(request);
  const headers: Record<string, string> = modern ? { [API_VERSION_HEADER]: API_VERSION_2024 } : {};

  if (error instanceof WeakPasswordError) {
    headers['x-sb-error-code'] = 'weak_password';
    const weak_password = { reasons: error.reasons };
    return modern
      ? json({ code: 'weak_password', message: error.message, weak_password }, 422, headers)
      : json(
          { code: 422, error_code: 'weak_password', msg: error.message, weak_password },
          422,
          headers,
        );
  }
  if (error instanceof AuthApiError) {
    headers['x-sb-error-code'] = error.code;
    return modern
      ? json({ code: error.code, message: error.message }, error.status, headers)
      : json(
          { code: error.status, error_code: error.code, msg: error.message },
          error.status,
          headers,
        );
  }
  if (error instanceof OAuthError) {
    return json({ error: error.error, error_description: error.description }, 400, headers);
  }

  console.error('auth: unhandled error', error);
  const message = 'Unexpected failure, please check server logs for more information';
  return modern
    ? json({ code: 'unexpected_failure', message }, 500, headers)
    : json({ code: 500, error_code: 'unexpected_failure', msg: message }, 500, headers);
}
