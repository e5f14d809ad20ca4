/**
 * A scheduled job's rows to links, in the background: chunks of CHUNK_ROWS rows, each checked
 * here (url-safety, tags) and then created by one app.bulk_create_links call (set-based inserts,
 * one transaction per chunk: a chunk is created whole or not at all);
 * every row's outcome kept for the per-row errors on the job and the result CSV in the exports
 * bucket; the job finished (and its owner notified) last.
 */
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { HttpError } from '../_shared/http.ts';
import { shortUrl, type ShortUrlBase } from '../_shared/short-url.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { type ChunkAnswer, createLinks, finishJob, isDeadlock } from './jobs.ts';
import { CHUNK_ROWS } from './limits.ts';
import { resultCsv, type ResultLine } from './result-csv.ts';
import type { BulkRow } from './rows.ts';
import { checkRow, type FieldErrors, type PreparedRow } from './validate-row.ts';

export interface JobToProcess {
  id: string;
  userId: string;
  /** The job's short domain, as stored. */
  domain: string;
  rows: BulkRow[];
}

/** The exports object a job's result is written to (the storage policy reads this shape). */
export const resultPath = (userId: string, jobId: string) => `${userId}/bulk-imports/${jobId}.csv`;

/** A refusal code in the words the import reports rows with (the api function's bulk too). */
export function messageOf(code: string): string {
  return (ERROR_CODES as Record<string, { message: string | null }>)[code]?.message ?? code;
}

const describe = (errors: FieldErrors) =>
  Object.entries(errors)
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
    .join('; ');

class Outcomes {
  readonly errors: Record<number, FieldErrors> = {};
  private readonly created = new Map<number, { alias: string; shortUrl: string }>();

  refuse(row: number, errors: FieldErrors) {
    this.errors[row] = errors;
  }

  refuseField(row: number, field: string, code: string) {
    (this.errors[row] ??= {})[field] = [messageOf(code)];
  }

  create(row: number, alias: string, shortUrl: string) {
    this.created.set(row, { alias, shortUrl });
  }

  lines(rows: readonly BulkRow[]): ResultLine[] {
    return rows.map((row) => {
      const created = this.created.get(row.row);
      const errors = this.errors[row.row];
      return {
        row: row.row,
        url: row.url,
        alias: created?.alias ?? row.alias,
        shortUrl: created?.shortUrl ?? '',
        tags: row.tags,
        status: created ? 'created' : 'failed',
        errors: errors ? describe(errors) : '',
      };
    });
  }
}

/** A chunk's rows checked here: those for the database, and the refused ones recorded. */
async function prepareChunk(chunk: readonly BulkRow[], outcomes: Outcomes): Promise<PreparedRow[]> {
  const prepared: PreparedRow[] = [];
  for (const row of chunk) {
    const check = await checkRow(row);
    if (check.ok) prepared.push(check.row);
    else outcomes.refuse(check.row, check.errors);
  }
  return prepared;
}

/** A chunk sent to the database: settles once it is committed, or with its failure. */
interface SentChunk {
  done: Promise<void>;
  settled: boolean;
}

/**
 * One chunk to links (app.bulk_create_links, migration 20261122007400). While the chunk before it
 * is still in the database, it is sent optimistic: both work at once on two connections, and it
 * commits after that one and only with the verdicts it would get alone. When it cannot (a limit
 * or the credits would stop some of its rows, the chunk before failed...), it keeps nothing and
 * raises: it is then sent again alone once the chunk before has ended, and that call decides as
 * a chunk sent alone always did. A failure of the chunk before is this chunk's failure too
 * (nothing after a failed chunk is kept).
 */
function sendChunk(
  request: Request,
  job: JobToProcess,
  start: number,
  chunk: readonly BulkRow[],
  prepared: PreparedRow[],
  outcomes: Outcomes,
  shortUrlBase: ShortUrlBase,
  before: SentChunk | undefined,
): SentChunk {
  const send = (optimistic: boolean) =>
    createLinks(request, job.id, prepared, chunk.length - prepared.length, {
      after: start,
      optimistic,
    });
  // Sent alone; once more if it lost a deadlock to the optimistic chunk after it (rolled back
  // whole, so the second call decides as the first would have).
  const sendAlone = () =>
    send(false).catch((error: unknown) => {
      if (!isDeadlock(error)) throw error;
      return send(false);
    });
  const create = async () => {
    let answer: ChunkAnswer;
    if (before === undefined || before.settled) {
      await before?.done;
      answer = await sendAlone();
    } else {
      try {
        answer = await send(true);
      } catch {
        await before.done;
        answer = await sendAlone();
      }
    }
    for (const [row, alias] of answer.created) {
      outcomes.create(row, alias, shortUrl({ domain: job.domain, alias }, shortUrlBase));
    }
    for (const [row, field, code] of answer.errors) outcomes.refuseField(row, field, code);
  };
  const sent: SentChunk = { done: create(), settled: false };
  sent.done.then(
    () => (sent.settled = true),
    () => (sent.settled = true),
  );
  return sent;
}

/**
 * Every chunk in file order, at most two in the database at once (but two that share a
 * destination one after the other), while the next is checked here: the function's work on one
 * chunk overlaps the database's on the two before it. A chunk is
 * prepared once the one two places before it has ended; a failed chunk stops the job before any
 * later chunk is sent, and the one sent after it (which cannot commit) is awaited first.
 */
async function createAll(
  request: Request,
  job: JobToProcess,
  outcomes: Outcomes,
  shortUrlBase: ShortUrlBase,
) {
  let previous: SentChunk | undefined;
  let previousUrls = new Set<string>();
  for (let start = 0; start < job.rows.length; start += CHUNK_ROWS) {
    const chunk = job.rows.slice(start, start + CHUNK_ROWS);
    const prepared = await prepareChunk(chunk, outcomes);
    // A destination the chunk before also has: sent once that one has ended, since together
    // each would wait for the other's row of it (and could deadlock).
    if (previous && prepared.some((row) => previousUrls.has(row.url))) await previous.done;
    previousUrls = new Set(prepared.map((row) => row.url));
    const current = sendChunk(
      request,
      job,
      start,
      chunk,
      prepared,
      outcomes,
      shortUrlBase,
      previous,
    );
    // Settled here or at the next await; a rejection is never left unhandled meanwhile.
    current.done.catch(() => {});
    try {
      await previous?.done;
    } catch (error) {
      await current.done.catch(() => {});
      throw error;
    }
    previous = current;
  }
  await previous?.done;
}

async function writeResult(userId: string, jobId: string, lines: ResultLine[]): Promise<string> {
  const path = resultPath(userId, jobId);
  const { error } = await serviceClient()
    .storage.from('exports')
    .upload(path, new TextEncoder().encode(resultCsv(lines)), {
      contentType: 'text/csv',
      upsert: true,
    });
  if (error) throw new Error(`Could not store the result of bulk job ${jobId}: ${error.message}`);
  return path;
}

/** The job was ended elsewhere (the stalled-jobs cron job failed it): nothing left to record. */
const isJobEnded = (error: unknown) =>
  error instanceof HttpError && error.code === 'bulk_job_not_found';

/**
 * Runs the job to its end. A failure part-way marks the job failed (links already created stay)
 * and still notifies the owner; only a failure to record that is thrown. A job already swept as
 * stalled refuses its late chunks; it is left as the sweep ended it (and its owner was told).
 */
export async function processJob(
  request: Request,
  job: JobToProcess,
  shortUrlBase: ShortUrlBase,
): Promise<void> {
  const outcomes = new Outcomes();
  try {
    await createAll(request, job, outcomes, shortUrlBase);
    const path = await writeResult(job.userId, job.id, outcomes.lines(job.rows));
    await finishJob(request, job.id, { failed: false, errors: outcomes.errors, resultPath: path });
  } catch (error) {
    if (isJobEnded(error)) {
      console.warn(`bulk job ${job.id} was ended while it ran (stalled); its rest is dropped`);
      return;
    }
    console.error(`bulk job ${job.id} failed:`, error);
    await finishJob(request, job.id, { failed: true, errors: outcomes.errors, resultPath: null });
  }
}
