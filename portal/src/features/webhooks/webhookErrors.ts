import { ApiError } from '../../data/unwrap.ts';

/**
 * What a refused endpoint save says on its URL field: the database's destination rule answers
 * 422 with the message as the code and the sentence in `details` (app.link_error).
 */
export function endpointUrlError(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const body = error.body as { details?: unknown } | null;
  return typeof body?.details === 'string' ? body.details : 'This URL is not allowed.';
}
