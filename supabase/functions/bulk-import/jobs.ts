/**
 * The job's database calls (migration 20261122001200_bulk.sql), each as the signed-in caller so
 * that auth.uid() and their permissions decide. Coded errors (errcode PTxxx) become HttpErrors
 * with the field the database named.
 */
import postgres from 'postgres';
import { codedError } from '../_shared/coded-error.ts';
import { HttpError } from '../_shared/http.ts';
import { asCaller } from '../_shared/sql.ts';
import type { BulkFileType } from './file-type.ts';
import type { FieldErrors, PreparedRow } from './validate-row.ts';

export interface ScheduledJob {
  id: string;
  file_path: string;
  total: number;
  account_id: string;
  domain: string;
}

/** A job as its status route answers it (GET bulk/jobs/{id}); per-row errors stay out. */
export interface JobStatus {
  job_id: string;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  file_name: string | null;
  total: number;
  processed: number;
  created: number;
  /** The result CSV in the exports bucket, once the job completed. */
  result_path: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** app.bulk_create_links's answer (its short_url_prefix is not used: see _shared/short-url.ts). */
export interface ChunkAnswer {
  /** [row, alias] of each link created. */
  created: [number, string][];
  /** [row, field, code] of each row the database refused. */
  errors: [number, string, string][];
}

/**
 * A transaction Postgres chose to end to break a deadlock: nothing of it was kept. Two chunks of
 * a job in flight can deadlock when the later one wrote a destination both have before the
 * earlier one did (migration 20261122007400).
 */
export const isDeadlock = (error: unknown) =>
  error instanceof postgres.PostgresError && error.code === '40P01';

/** postgres.js sends sql.json values as jsonb; its JSONValue type wants plain JSON data. */
const toJson = (value: unknown) => value as postgres.JSONValue;

async function call<T>(request: Request, query: (sql: postgres.TransactionSql) => Promise<T>) {
  try {
    return await asCaller(request, query);
  } catch (error) {
    throw codedError(error);
  }
}

export async function scheduleJob(
  request: Request,
  job: {
    id: string;
    domain: string;
    fileName: string;
    fileType: BulkFileType;
    withHeader: boolean;
    total: number;
    organization: string | null;
    team: string | null;
  },
): Promise<ScheduledJob> {
  const [row] = await call(
    request,
    (sql) => sql<{ job: ScheduledJob }[]>`
      select app.schedule_bulk_job(${job.id}, ${job.domain}, ${job.fileName}, ${job.fileType},
        ${job.withHeader}, ${job.total}, ${job.organization}, ${job.team}) as job`,
  );
  return row!.job;
}

/**
 * Where a chunk stands in its job (migration 20261122007400): `after`, the job's rows before it
 * (it commits only after the chunk before it, and only if that one was committed); `optimistic`,
 * sent while the chunk before it is still in the database (it raises, keeping nothing, when it
 * cannot get the verdicts it would get alone: it is then sent again, not optimistic).
 */
export interface ChunkPlace {
  after: number;
  optimistic: boolean;
}

export async function createLinks(
  request: Request,
  jobId: string,
  rows: PreparedRow[],
  refusedRows: number,
  place: ChunkPlace,
): Promise<ChunkAnswer> {
  const [row] = await call(
    request,
    (sql) => sql<{ answer: ChunkAnswer }[]>`
      select app.bulk_create_links(${jobId}, ${sql.json(toJson(rows))}, ${refusedRows},
        ${place.after}, ${place.optimistic}) as answer`,
  );
  return row!.answer;
}

export async function finishJob(
  request: Request,
  jobId: string,
  outcome: { failed: boolean; errors: Record<number, FieldErrors>; resultPath: string | null },
): Promise<void> {
  await call(
    request,
    (sql) => sql`
      select app.finish_bulk_job(${jobId}, ${outcome.failed},
        ${sql.json(toJson(outcome.errors))}, ${outcome.resultPath})`,
  );
}

/**
 * The job as the caller may see it (row-level security decides), or a 404. Timestamps as
 * PostgREST writes them (to_json), so the apps read them as they read the table.
 */
export async function readJob(request: Request, jobId: string): Promise<JobStatus> {
  const [job] = await call(
    request,
    (sql) => sql<JobStatus[]>`
      select j.id as job_id, j.status, j.file_name, j.total, j.processed, j.created,
        j.result_path, to_json(j.created_at) #>> '{}' as created_at,
        to_json(j.started_at) #>> '{}' as started_at,
        to_json(j.finished_at) #>> '{}' as finished_at
      from public.bulk_jobs j
      where j.id = ${jobId}`,
  );
  if (!job) throw new HttpError(404, 'Bulk job not found.', 'bulk_job_not_found');
  return job;
}
