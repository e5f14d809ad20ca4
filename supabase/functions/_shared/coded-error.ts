/**
 * The database's coded refusals (errcode PTxxx: the HTTP status, the code as the message, the
 * reader's text as the detail, the field as the hint) as the HttpError the apps map.
 */
import postgres from 'postgres';
import { HttpError } from './http.ts';

/** A coded database refusal as the HTTP answer the apps map; anything else is returned as is. */
export function codedError(error: unknown): unknown {
  if (!(error instanceof postgres.PostgresError) || !/^PT\d{3}$/.test(error.code)) return error;
  const message = error.detail ?? error.message;
  return new HttpError(Number(error.code.slice(2)), message, error.message, {
    [error.hint ?? 'form']: [message],
  });
}
