/**
 * The create form's body (link-creation 3): url, domain, alias, description, team, tags,
 * anti_robot_token, expires_at, plus the guest's ccpa_accepted. Validated with the shared
 * schema, so the portal and the function give the same messages; unknown fields and wrong types
 * are refused per field rather than ignored or coerced.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { linkCreateSchema } from '../../../shared/src/schemas/link.ts';
import { destinationError, type SafeDestination } from '../_shared/url-safety.ts';
import { checkShape } from './destination.ts';
import { fieldError, fieldErrors, type FieldErrors } from './errors.ts';

/** Far above any real form (the URL alone may take 8 KB): a bigger body is not a form. */
export const MAX_BODY_BYTES = 64 * 1024;

export const BODY_NOT_AN_OBJECT = 'The request body must be a JSON object.';
export const BODY_TOO_LARGE = 'The request body must not be greater than 64 kilobytes.';

export interface LinkRequest {
  /** The URL, normalised and judged safe from its text (destination.ts, the pre-check). */
  destination: SafeDestination;
  domain: string;
  alias: string | null;
  description: string | null;
  /** A team slug, or null for the personal workspace. */
  team: string | null;
  /** Normalised: lower case, no spaces, no empty tags. */
  tags: string[];
  antiRobotToken: string | null;
  /** UTC ISO timestamp, already inside the expiry window at `now`. */
  expiresAt: string | null;
  ccpaAccepted: boolean;
}

/**
 * The URL as sent: required and text, and otherwise untouched. Trimming it here would hide a
 * leading or trailing CR/LF, and the shared form check's scheme test would answer url_invalid
 * where URL safety (destination.ts) answers url_not_allowed; URL safety judges the rest.
 */
const rawUrl = z
  .string({ error: ERROR_CODES.url_required.message })
  .refine((url) => url.trim() !== '', { error: ERROR_CODES.url_required.message, abort: true });

function requestSchema(now: Date) {
  return linkCreateSchema({ now })
    .extend({ url: rawUrl, ccpa_accepted: z.boolean().nullish() })
    .strict();
}

const TYPE_WORDING: Readonly<Record<string, string>> = {
  string: 'a string',
  array: 'an array',
  boolean: 'true or false',
  object: 'an object',
};

/** A field as Laravel names it in messages: `anti_robot_token` → "anti robot token", `tags.2`. */
const attributeName = (path: readonly PropertyKey[]) =>
  path.map(String).join('.').replaceAll('_', ' ');

/** Wording for zod's built-in type errors; fields whose schema sets a message keep it. */
export const typeErrors: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  const expected = TYPE_WORDING[issue.expected] ?? `of type ${issue.expected}`;
  return `The ${attributeName(issue.path ?? [])} field must be ${expected}.`;
};

export function errorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, `The ${attributeName([key])} field is prohibited.`);
      continue;
    }
    add(issue.path.length === 0 ? 'form' : issue.path.map(String).join('.'), issue.message);
  }
  return errors;
}

export async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw fieldError(413, 'body_too_large', 'form', BODY_TOO_LARGE);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    // Counted while reading: a missing or false Content-Length must not let more in.
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw fieldError(413, 'body_too_large', 'form', BODY_TOO_LARGE);
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fieldError(422, 'invalid_body', 'form', BODY_NOT_AN_OBJECT);
  }
}

export function parseObject(text: string): Record<string, unknown> {
  // No body at all is an empty form: the answer then names every required field.
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fieldError(422, 'invalid_body', 'form', BODY_NOT_AN_OBJECT);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw fieldError(422, 'invalid_body', 'form', BODY_NOT_AN_OBJECT);
  return body as Record<string, unknown>;
}

/**
 * Validates a parsed body at `now` (the expiry window moves with the clock). The URL's text is
 * judged with the other fields (destination.ts, the pre-check), so one answer names every field at
 * fault; a URL refused alone keeps its own code (url_not_allowed…).
 */
export async function validateLinkRequest(body: unknown, now: Date): Promise<LinkRequest> {
  const parsed = requestSchema(now).safeParse(body, { error: typeErrors });
  const errors = parsed.success ? {} : errorsOf(parsed.error);
  const url = (body as Record<string, unknown> | null)?.url;
  const shape = typeof url === 'string' && !errors.url ? await checkShape(url) : null;
  if (shape && !shape.ok) {
    if (Object.keys(errors).length === 0) throw destinationError(shape);
    errors.url = [shape.message];
  }
  if (!parsed.success || !shape || !shape.ok) throw fieldErrors(422, 'validation_failed', errors);
  const value = parsed.data;
  return {
    destination: shape,
    domain: value.domain,
    alias: value.alias,
    description: value.description,
    team: value.team,
    tags: value.tags,
    antiRobotToken: value.anti_robot_token,
    expiresAt: value.expires_at,
    ccpaAccepted: value.ccpa_accepted === true,
  };
}

/** Reads and validates the request's JSON body; refusals are 413 or 422 HttpErrors. */
export async function readLinkRequest(request: Request, now: Date): Promise<LinkRequest> {
  return await validateLinkRequest(parseObject(await readText(request)), now);
}
