/**
 * The create form's body (link-creation 3): url, domain, alias, description, team, tags,
 * anti_robot_token, expires_at, plus the guest's ccpa_accepted. Validated with the shared
 * schema, so the portal and the function give the same messages; unknown fields and wrong types
 * are refused per field rather than ignored or coerced.
 */
import { z } from 'zod';
import { linkCreateSchema } from '../../../shared/src/schemas/link.ts';
import { fieldError, fieldErrors, type FieldErrors } from './errors.ts';

/** Far above any real form (the URL alone may take 8 KB): a bigger body is not a form. */
export const MAX_BODY_BYTES = 64 * 1024;

export const BODY_NOT_AN_OBJECT = 'The request body must be a JSON object.';
export const BODY_TOO_LARGE = 'The request body must not be greater than 64 kilobytes.';

export interface LinkRequest {
  url: string;
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

function requestSchema(now: Date) {
  return linkCreateSchema({ now }).extend({ ccpa_accepted: z.boolean().nullish() }).strict();
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
const typeErrors: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  const expected = TYPE_WORDING[issue.expected] ?? `of type ${issue.expected}`;
  return `The ${attributeName(issue.path ?? [])} field must be ${expected}.`;
};

function errorsOf(error: z.ZodError): FieldErrors {
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

async function readText(request: Request): Promise<string> {
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

function parseObject(text: string): Record<string, unknown> {
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

/** Validates a parsed body at `now` (the expiry window moves with the clock). */
export function validateLinkRequest(body: unknown, now: Date): LinkRequest {
  const parsed = requestSchema(now).safeParse(body, { error: typeErrors });
  if (!parsed.success) throw fieldErrors(422, 'validation_failed', errorsOf(parsed.error));
  const value = parsed.data;
  return {
    url: value.url,
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
  return validateLinkRequest(parseObject(await readText(request)), now);
}
