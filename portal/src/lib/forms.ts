import { mapApiError } from '@shortlane/shared/errors.ts';
import { firstErrorPerField } from '@shortlane/shared/schemas/rules.ts';
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { ZodType } from 'zod';
import { ApiError } from '../data/unwrap.ts';

/**
 * A @mantine/form `validate` function from one of shared's zod schemas: the first message per
 * field, as the spec shows form errors. The schemas are the ones the server side checks with.
 */
export function validateWith<Values>(schema: ZodType<unknown, Values>) {
  return (values: Values): Record<string, string> => {
    const result = schema.safeParse(values);
    return result.success ? {} : firstErrorPerField(result.error);
  };
}

/** The first message per field of an error answer, for `form.setErrors` (app-shell 5). */
export function apiFormErrors(status: number, body: unknown): Record<string, string> {
  return mapApiError(status, body).fieldErrors;
}

/**
 * The same, from whatever a Supabase call failed with: an ApiError (REST and RPC calls through
 * `unwrap`) or a FunctionsHttpError (its response carries the body). Anything else (a network
 * failure) maps to no field: the global handler or the caller says what went wrong.
 */
export async function formErrorsFromError(error: unknown): Promise<Record<string, string>> {
  if (error instanceof ApiError) return apiFormErrors(error.status, error.body);
  if (error instanceof FunctionsHttpError && error.context instanceof Response) {
    const response = error.context;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    return apiFormErrors(response.status, body);
  }
  return {};
}

/** The one message a refused call shows as a notice (its first mapped notice). */
export function apiFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return mapApiError(error.status, error.body).notices[0] ?? 'Something went wrong.';
  }
  return 'Something went wrong.';
}
