import { ApiError } from '../../data/unwrap.ts';

/**
 * What a refused domain write says, and under which field: the domain RPCs and triggers raise
 * coded errors whose `details` carry the sentence and `hint` the field (domain_taken,
 * domain_limit_reached, subdomain_reserved…); RLS refusals (42501) mean the plan or the role
 * does not allow it.
 */
export function domainError(error: unknown): { field: string; message: string } | null {
  if (error == null) return null;
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const { details, hint, code } = error.body as {
      details?: unknown;
      hint?: unknown;
      code?: unknown;
    };
    if (code === '42501') {
      return { field: 'form', message: 'Your plan or your role does not allow this.' };
    }
    if (code === '23505') {
      return { field: 'domain', message: 'This domain has already been taken.' };
    }
    if (typeof details === 'string' && details !== '') {
      return { field: typeof hint === 'string' && hint !== '' ? hint : 'form', message: details };
    }
  }
  return { field: 'form', message: 'Something went wrong. Please try again.' };
}
