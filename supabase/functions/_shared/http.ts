import { corsHeaders, preflight } from './cors.ts';

/** A refusal a handler throws; `handler()` turns it into the JSON answer the apps map. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    /** Field → messages, for 422 answers (the apps show each message). */
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** Headers the answer carries besides the JSON ones (e.g. a 429's Retry-After). */
  headers: Record<string, string> = {};
}

export interface ErrorBody {
  code: string;
  message: string;
  errors?: Record<string, string[]>;
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const merged = new Headers(headers);
  merged.set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(corsHeaders)) merged.set(name, value);
  return new Response(JSON.stringify(body), { status, headers: merged });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) {
    const body: ErrorBody = { code: error.code, message: error.message };
    if (error.errors) body.errors = error.errors;
    return json(body, error.status, error.headers);
  }
  // Anything else is a bug: log it for the operator, tell the caller nothing internal.
  console.error(error);
  return json(
    { code: 'internal_error', message: 'Internal server error' } satisfies ErrorBody,
    500,
  );
}

/**
 * Wraps a function's logic with what every function needs: preflight answers, CORS on every
 * answer, and thrown HttpErrors turned into JSON error bodies.
 */
export function handler(
  serve: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const early = preflight(request);
    if (early) return early;
    try {
      return await serve(request);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
