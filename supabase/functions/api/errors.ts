/**
 * The public API's one error body, on every refusal: `{ error: { code, message, doc_url } }`,
 * plus `fields` (field → messages) on a 422. The statuses are the spec's catalogue (app-shell 8):
 * 401 unknown token, 402 out of credits, 403 missing ability or plan feature, 404, 409, 413, 422
 * validation, 429 rate limit, 5xx. Refusals of the shared link code (HttpError, the RPCs' coded
 * errors) keep their status, code and messages: the API refuses exactly as the portal does.
 */
import { MESSAGES } from '../../../shared/src/messages.ts';
import { AliasExhaustedError } from '../_shared/alias.ts';
import { corsHeaders } from '../_shared/cors.ts';
import { HttpError } from '../_shared/http.ts';
import { codedDatabaseError, refusalFromDatabase } from '../links/errors.ts';

export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    doc_url: string;
    fields?: Record<string, string[]>;
  };
}

/** Where the reference lives: the portal's API page (`/app/dev`), one anchor per error code. */
export type DocUrl = (code: string) => string;

export function docUrlFrom(base: string): DocUrl {
  const trimmed = base.replace(/\/+$/, '');
  return (code) => `${trimmed}/app/dev#error-${encodeURIComponent(code)}`;
}

export class ApiError extends HttpError {}

export const apiError = (
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ApiError => {
  const error = new ApiError(status, message, code);
  error.headers = headers;
  return error;
};

/** The statuses' own words where the catalogue gives them. */
export const API_MESSAGES = {
  unauthenticated: 'Unauthenticated.',
  abilityMissing: 'This token does not have the ability to do this.',
  // The database's wording for the same refusal (app.link_error's feature_not_allowed).
  featureNotAllowed: 'Your plan does not allow this feature.',
  notFound: MESSAGES.notFound,
  methodNotAllowed: 'Method Not Allowed',
  rateLimited: 'Too Many Attempts.',
  idempotencyMismatch: 'This Idempotency-Key was used for another request.',
  idempotencyInFlight: 'A request with this Idempotency-Key is still being processed.',
} as const;

/** Any failure as an HttpError with the right status; anything unknown stays a 500. */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const coded = codedDatabaseError(error);
  if (coded) return refusalFromDatabase(coded);
  if (error instanceof AliasExhaustedError) {
    console.error(`api: ${error.message}`);
    return new HttpError(503, MESSAGES.somethingWentWrong, 'alias_exhausted');
  }
  console.error(error);
  return new HttpError(500, MESSAGES.somethingWentWrong, 'internal_error');
}

export function errorBody(error: HttpError, docUrl: DocUrl): ApiErrorBody {
  const body: ApiErrorBody = {
    error: { code: error.code, message: error.message, doc_url: docUrl(error.code) },
  };
  if (error.errors) body.error.fields = error.errors;
  return body;
}

export function errorResponse(
  error: unknown,
  docUrl: DocUrl,
  headers: Record<string, string> = {},
): Response {
  const refusal = asHttpError(error);
  const merged = new Headers({ ...corsHeaders, ...headers, ...refusal.headers });
  merged.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(errorBody(refusal, docUrl)), {
    status: refusal.status,
    headers: merged,
  });
}
