import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { bulkJobKeys } from './keys.ts';
import { ApiError } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** One refused field of a row of the file: its line, the field and what was wrong. */
export interface RefusedRow {
  line: number;
  field: string;
  message: string;
}

export interface RefusedRowsPage {
  rows: RefusedRow[];
  /** Every refused row of the job (all pages). */
  count: number;
}

export const REFUSED_ROWS_PAGE_SIZE = 50;

/** A page of the job's refused rows in file order (rpc bulk_job_errors, paged by PostgREST). */
export async function fetchRefusedRows(
  supabase: PortalSupabase,
  jobId: string,
  page: number,
): Promise<RefusedRowsPage> {
  const from = (page - 1) * REFUSED_ROWS_PAGE_SIZE;
  const result = await supabase
    .rpc('bulk_job_errors', { p_job_id: jobId }, { count: 'exact' })
    .range(from, from + REFUSED_ROWS_PAGE_SIZE - 1);
  if (result.error) throw new ApiError(result.error.message, result.status, result.error);
  return { rows: result.data, count: result.count ?? result.data.length };
}

/** Asked once the job has ended: the rows are written when it finishes. */
export function useRefusedRowsQuery(jobId: string, page: number, ended: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: bulkJobKeys.refusedRows(userId ?? '', jobId, page),
    queryFn: () => fetchRefusedRows(supabase, jobId, page),
    enabled: userId != null && ended,
    placeholderData: keepPreviousData,
  });
}
