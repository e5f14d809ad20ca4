import type { BulkJob } from '../../data/bulk-job-query.ts';

/** What the job page says about a job's state, in words (the badge and the heading's note). */
export const JOB_STATUS_LABELS: Record<BulkJob['status'], string> = {
  pending: 'Waiting to start',
  processing: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
};

export interface JobCounts {
  total: number;
  processed: number;
  created: number;
  /** Rows handled that did not become links. */
  refused: number;
  /** Processed share of the rows, 0–100. */
  percent: number;
}

export function jobCounts(job: Pick<BulkJob, 'total' | 'processed' | 'created'>): JobCounts {
  const refused = Math.max(job.processed - job.created, 0);
  const percent = job.total === 0 ? 100 : Math.round((job.processed / job.total) * 100);
  return {
    total: job.total,
    processed: job.processed,
    created: job.created,
    refused,
    percent,
  };
}

/** The result CSV's name: the uploaded file's, marked as the result. */
export function resultFileName(job: Pick<BulkJob, 'file_name' | 'job_id'>): string {
  const base = (job.file_name ?? `bulk-${job.job_id}`).replace(/\.[^.]+$/, '');
  return `${base}-result.csv`.replace(/[^\w.-]+/g, '_');
}
