/**
 * Glue between the validation functions and zod, so schemas report the spec's messages, and
 * a reader of zod errors for forms (first message per field, as the spec shows them).
 */
import { z } from 'zod';

type Rule<T> = (value: T) => string | null;

/** Adds the rule's message as an issue on the value being checked. */
export function checkWith<T>(rule: Rule<T>) {
  return (value: T, ctx: z.RefinementCtx): void => {
    const message = rule(value);
    if (message != null) ctx.addIssue({ code: 'custom', message });
  };
}

/** A required text field: missing, non-text and blank input all get `message`. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/** An optional text field: missing, null and blank input all become null. */
export function optionalText() {
  return z
    .string()
    .trim()
    .nullish()
    .transform((value) => (value == null || value === '' ? null : value));
}

export const EMAIL_REQUIRED = 'The email field is required.';
export const EMAIL_INVALID = 'The email must be a valid email address.';

export function emailField() {
  return requiredText(EMAIL_REQUIRED).pipe(z.email({ error: EMAIL_INVALID }));
}

/** Boolean form values: real booleans or the strings multipart forms send ("true", "1"…). */
export function formBoolean() {
  return z.union([z.boolean(), z.stringbool()]);
}

/** The first message per field, keyed by dotted path ('tags.2'); form-level issues as 'form'. */
export function firstErrorPerField(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length === 0 ? 'form' : issue.path.map(String).join('.');
    fields[key] ??= issue.message;
  }
  return fields;
}
