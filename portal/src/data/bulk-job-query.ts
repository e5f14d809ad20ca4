import { useQuery, type Query } from '@tanstack/react-query';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { z } from 'zod';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { bulkJobKeys } from './keys.ts';
import { useUserId } from './use-user-id.ts';

/** GET bulk/jobs/{id} of the bulk-import function: the job as the caller may see it. */
const jobSchema = z.object({
  job_id: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  file_name: z.string().nullable(),
  total: z.number(),
  processed: z.number(),
  created: z.number(),
  result_path: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type BulkJob = z.infer<typeof jobSchema>;

/** The job does not exist, or the caller may not see it (the function answers 404 to both). */
export class BulkJobNotFoundError extends Error {
  constructor() {
    super('Bulk job not found.');
    this.name = 'BulkJobNotFoundError';
  }
}

export const isJobRunning = (job: Pick<BulkJob, 'status'>) =>
  job.status === 'pending' || job.status === 'processing';

export async function fetchBulkJob(supabase: PortalSupabase, jobId: string): Promise<BulkJob> {
  const { data, error } = await supabase.functions.invoke<unknown>(
    `bulk-import/bulk/jobs/${jobId}`,
    {
      method: 'GET',
    },
  );
  if (error) {
    if (error instanceof FunctionsHttpError && (error.context as Response).status === 404) {
      throw new BulkJobNotFoundError();
    }
    throw error;
  }
  const job = jobSchema.safeParse(data);
  if (!job.success) throw new Error(`Unexpected bulk job answer: ${job.error.message}`);
  return job.data;
}

/**
 * How long to wait before asking again about a running job: 1 s, then doubling up to the cap,
 * so a long import costs a request every few seconds rather than a busy loop. Nothing once the
 * job has ended.
 */
export function bulkJobPollDelay(
  job: Pick<BulkJob, 'status'> | undefined,
  polls: number,
  { firstMs = 1_000, maxMs = 8_000 } = {},
): number | false {
  if (job != null && !isJobRunning(job)) return false;
  return Math.min(firstMs * 2 ** polls, maxMs);
}

export function useBulkJobQuery(jobId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: bulkJobKeys.detail(userId ?? '', jobId ?? ''),
    queryFn: () => fetchBulkJob(supabase, jobId!),
    enabled: userId != null && jobId != null,
    retry: (failures, error) => !(error instanceof BulkJobNotFoundError) && failures < 2,
    refetchInterval: (query: Query<BulkJob, Error>) =>
      query.state.status === 'error'
        ? false
        : bulkJobPollDelay(query.state.data, query.state.dataUpdateCount),
  });
}
