import type { Database } from '@shortlane/shared/database.types.ts';

/** A row of a public table, as the generated types describe it. */
export type Row<Table extends keyof Database['public']['Tables']> =
  Database['public']['Tables'][Table]['Row'];

/** A failed Supabase call: the HTTP status and the error body, for the query client's retry rule. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface SupabaseResult<Data> {
  data: Data | null;
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}

/** The data of a Supabase answer, or the error thrown (TanStack Query wants a throw). */
export function unwrap<Data>(result: SupabaseResult<Data>): Data {
  if (result.error) {
    throw new ApiError(result.error.message, result.status, result.error);
  }
  if (result.data == null) throw new ApiError('The answer carried no data.', result.status, null);
  return result.data;
}
