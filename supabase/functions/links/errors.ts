/**
 * Refusals in the shape the create form maps (link-creation 8): `{ code, message, errors }` with
 * messages per field (url, domain, alias, description, team, tags, tags.N, expires_at, the
 * guest's anti_robot_token and ccpa_accepted) and 'form' for the rest. The RPC's coded errors
 * (errcode PTxxx, message = code, hint = field) keep their HTTP status.
 */
import { ERROR_CODES, errorMessage, isErrorCode } from '../../../shared/src/errors.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { HttpError } from '../_shared/http.ts';

export type FieldErrors = Record<string, string[]>;

const FORM_FIELDS = new Set([
  'url',
  'domain',
  'alias',
  'description',
  'team',
  'tags',
  'expires_at',
  'anti_robot_token',
  'ccpa_accepted',
]);
const TAG_FIELD = /^tags\.\d+$/;

/** The form field an error belongs on: a field of the create form, or 'form'. */
export function formField(name: string | null | undefined): string {
  if (name && (FORM_FIELDS.has(name) || TAG_FIELD.test(name))) return name;
  return 'form';
}

/** A refusal with messages per field; its own message is the first of them, as Laravel's is. */
export function fieldErrors(status: number, code: string, errors: FieldErrors): HttpError {
  const first = Object.values(errors).flat()[0] ?? MESSAGES.somethingWentWrong;
  return new HttpError(status, first, code, errors);
}

export function fieldError(status: number, code: string, field: string, message: string) {
  return fieldErrors(status, code, { [formField(field)]: [message] });
}

/** Codes the RPCs raise that the shared table does not list, with the database's wording. */
export const ORGANIZATION_NOT_FOUND = 'Organization not found.';

export interface CodedDatabaseError {
  status: number;
  code: string;
  detail: string | null;
  hint: string | null;
}

const CODED_ERRCODE = /^PT(\d{3})$/;

/** The data-model contract's coded error inside a database error, or null for anything else. */
export function codedDatabaseError(error: unknown): CodedDatabaseError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, detail, hint } = error as Record<string, unknown>;
  const status = typeof code === 'string' ? CODED_ERRCODE.exec(code)?.[1] : undefined;
  if (!status || typeof message !== 'string') return null;
  return {
    status: Number(status),
    code: message,
    detail: typeof detail === 'string' ? detail : null,
    hint: typeof hint === 'string' ? hint : null,
  };
}

/** The answer for an RPC refusal: the spec's message for its code, on the field it names. */
export function refusalFromDatabase(coded: CodedDatabaseError): HttpError {
  if (isErrorCode(coded.code)) {
    const field = coded.hint ?? ERROR_CODES[coded.code].field;
    return fieldError(coded.status, coded.code, field, errorMessage(coded.code, coded.detail));
  }
  const message = coded.detail ?? MESSAGES.somethingWentWrong;
  return fieldError(coded.status, coded.code, coded.hint ?? 'form', message);
}
