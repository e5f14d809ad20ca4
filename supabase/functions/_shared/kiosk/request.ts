/** Reading a kiosk function's JSON body: an object with a known `action`, fields checked. */
import { HttpError } from '../http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const invalid = (field: string, message: string) =>
  new HttpError(422, message, 'validation_failed', { [field]: [message] });

export async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (request.method !== 'POST') {
    throw new HttpError(405, 'Only POST is supported', 'method_not_allowed');
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new HttpError(400, 'The body must be JSON', 'invalid_json');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object', 'invalid_json');
  }
  return body as Record<string, unknown>;
}

export function readAction<A extends string>(
  body: Record<string, unknown>,
  actions: readonly A[],
): A {
  const action = body.action;
  if (typeof action !== 'string' || !(actions as readonly string[]).includes(action)) {
    throw invalid('action', `The action must be one of: ${actions.join(', ')}.`);
  }
  return action as A;
}

export function readUserId(body: Record<string, unknown>): string {
  const id = body.user_id;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw invalid('user_id', 'The user_id must be a user id (UUID).');
  }
  return id.toLowerCase();
}
