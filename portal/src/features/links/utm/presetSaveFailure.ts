import { MESSAGES } from '@shortlane/shared/messages.ts';
import { mapApiError } from '@shortlane/shared/errors.ts';
import { ApiError } from '../../../data/unwrap.ts';

/** How the builder shows a failed preset save (link-creation 8, "Preset create"). */
export type PresetSaveFailure =
  { kind: 'fields'; fieldErrors: Record<string, string> } | { kind: 'notice'; message: string };

function serverMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('message' in body)) return null;
  const { message } = body;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

/**
 * A 422 puts its field errors onto the form; otherwise the server's message is shown as an error
 * notice; otherwise (no answer at all, or one without a message) the generic text.
 */
export function presetSaveFailure(error: unknown): PresetSaveFailure {
  if (!(error instanceof ApiError)) {
    return { kind: 'notice', message: MESSAGES.somethingWentWrong };
  }
  const mapped = mapApiError(error.status, error.body);
  if (error.status === 422) {
    const { form, ...fieldErrors } = mapped.fieldErrors;
    if (Object.keys(fieldErrors).length > 0) return { kind: 'fields', fieldErrors };
    if (form != null) return { kind: 'notice', message: form };
  }
  // Our coded errors carry their spec wording; anything else says what the server said.
  const message = mapped.code != null ? mapped.notices[0] : serverMessage(error.body);
  return { kind: 'notice', message: message ?? MESSAGES.somethingWentWrong };
}
