import { handler, HttpError, json } from '../_shared/http.ts';
import { callerOf } from '../_shared/caller.ts';
import { shortUrlBaseFromEnv } from '../_shared/short-url.ts';
import { callerClient } from '../_shared/supabase.ts';
import { runInBackground } from './background.ts';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { MIME_TYPES } from './file-type.ts';
import { FORM_MESSAGES, readBulkForm } from './form.ts';
import { MAX_BODY_BYTES } from './limits.ts';
import { finishJob, readJob, scheduleJob } from './jobs.ts';
import { processJob } from './process-job.ts';
import { readBulkFile, type ReadFile } from './read-file.ts';
import { matchRoute, type UploadRoute } from './routes.ts';

// Read once at start-up: a malformed SHORT_URL_BASE stops the function before any job runs.
const SHORT_URL_BASE = shortUrlBaseFromEnv();

/** The spec's bulk status response, plus the job's id (to follow it and fetch its result). */
export interface BulkAnswer {
  total: number;
  job_id: string;
}

const validationFailed = (errors: Record<string, string[]>) => {
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  return new HttpError(422, first, 'validation_failed', errors);
};

/** The signed-in user's id; guests (the anon key) and other roles are refused. */
function signedInUser(request: Request): string {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') {
    throw new HttpError(401, 'Unauthenticated.', 'not_signed_in');
  }
  return claims.sub;
}

/**
 * POST …/bulk/csv: checks the form and the file, schedules the job, stores the file in the
 * imports bucket (as the caller: the storage policy admits only their pending job's file) and
 * answers `{ total }` at once; the links are created in the background (process-job.ts).
 * GET bulk/jobs/{id}: the job's status. Jobs whose process was cut off are ended by the cron job
 * bulk-fail-stalled-jobs (migration 20261122002310), not here.
 */
export const bulkImport = handler(async (request) => {
  try {
    const route = matchRoute(new URL(request.url).pathname);
    if (request.method !== (route.kind === 'upload' ? 'POST' : 'GET')) {
      throw new HttpError(405, 'Method not allowed.', 'method_not_allowed');
    }
    const userId = signedInUser(request);
    if (route.kind === 'job') return json(await readJob(request, route.jobId));
    return await importFile(request, route, userId);
  } catch (error) {
    await drainUnread(request);
    throw error;
  }
});

/**
 * Reads what is left of a refused request's body (up to the form's cap) before answering: a
 * client still sending its upload when the answer comes would otherwise see a broken pipe
 * instead of the refusal.
 */
async function drainUnread(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  let read = 0;
  try {
    for await (const chunk of request.body) {
      read += chunk.byteLength;
      if (read > MAX_BODY_BYTES) break;
    }
  } catch {
    // The client went away: nothing to answer.
  }
}

async function importFile(request: Request, route: UploadRoute, userId: string): Promise<Response> {
  const form = await readBulkForm(request);

  const errors: Record<string, string[]> = {};
  let file: ReadFile | undefined;
  if (!form.file) {
    errors.file = [FILE_MESSAGES.required];
  } else if (form.withHeader !== null) {
    try {
      file = await readBulkFile(form.file.name, form.file.bytes, form.withHeader);
    } catch (error) {
      if (!(error instanceof FileRefusal)) throw error;
      errors.file = [error.message];
    }
  }
  if (form.domain === '') errors.domain = [FORM_MESSAGES.domainRequired];
  if (form.withHeader === null) errors.withHeader = [FORM_MESSAGES.withHeaderInvalid];
  if (!file || !form.file || Object.keys(errors).length > 0) throw validationFailed(errors);

  const job = await scheduleJob(request, {
    id: crypto.randomUUID(),
    domain: form.domain,
    fileName: form.file.name.slice(-255),
    fileType: file.type,
    withHeader: form.withHeader ?? true,
    total: file.rows.length,
    organization: route.organization,
    team: route.team === undefined ? form.team : route.team,
  });

  const { error: uploadError } = await callerClient(request)
    .storage.from('imports')
    .upload(job.file_path, form.file.bytes, { contentType: MIME_TYPES[file.type], upsert: false });
  if (uploadError) {
    // Nothing will process the job: record it as failed (the owner is told) before answering.
    await finishJob(request, job.id, { failed: true, errors: {}, resultPath: null });
    throw new Error(`Upload of ${job.file_path} failed: ${uploadError.message}`);
  }

  const rows = file.rows;
  runInBackground(
    () => processJob(request, { id: job.id, userId, domain: job.domain, rows }, SHORT_URL_BASE),
    (error) => console.error(`bulk job ${job.id}: could not record its outcome:`, error),
  );
  return json({ total: job.total, job_id: job.id } satisfies BulkAnswer);
}
