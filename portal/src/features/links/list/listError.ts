import { mapApiError } from '@shortlane/shared/errors.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { ApiError } from '../../../data/unwrap.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a list says when it cannot load (link-creation 8): the server's error messages, joined by
 * line breaks where it is shown, or "something went wrong" when the answer carried none.
 */
export function listLoadErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [MESSAGES.somethingWentWrong];
  const { body, status } = error;
  if (isRecord(body) && isRecord(body.errors)) return mapApiError(status, body).notices;
  if (isRecord(body) && typeof body.message === 'string' && body.message !== '') {
    const mapped = mapApiError(status, body);
    // One of our error codes reads as its spec message; other server messages as written.
    return mapped.code != null ? mapped.notices : [body.message];
  }
  return [MESSAGES.somethingWentWrong];
}
