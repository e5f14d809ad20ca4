import { ApiError } from '../../data/unwrap.ts';

/**
 * What a refused pixel save says on the id field: the database's format check answers 422 with
 * the provider's sentence in `details` (app.pixel_id_format); the account's unique pixel
 * answers 409. Null for anything else (the form then says it could not be saved).
 */
export function pixelIdServerError(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return 'This pixel is already in this account.';
  if (error.status !== 422) return null;
  const body = error.body as { details?: unknown } | null;
  return typeof body?.details === 'string' ? body.details : 'This id is not valid.';
}
