import { ApiError } from '../../data/unwrap.ts';

/** The token form's fields a server refusal can name. */
export type TokenField = 'name' | 'abilities' | 'expires_at' | 'form';

const FIELDS: readonly string[] = ['name', 'abilities', 'expires_at'];

/**
 * Where a refused create or update goes on the form. The token RPCs raise coded errors whose
 * `details` carry the message and `hint` the field (name_required, name_too_long,
 * abilities_invalid, expiry_too_soon, and the 423 of a password confirmation the user cancelled);
 * anything else is said once above the buttons.
 */
export function tokenFormError(error: unknown): { field: TokenField; message: string } | null {
  if (error == null) return null;
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const { details, hint } = error.body as { details?: unknown; hint?: unknown };
    if (typeof details === 'string' && details !== '') {
      const field = typeof hint === 'string' && FIELDS.includes(hint) ? hint : 'form';
      return { field: field as TokenField, message: details };
    }
  }
  return { field: 'form', message: 'Something went wrong. Please try again.' };
}
