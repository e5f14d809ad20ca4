import pg from 'pg';
import { InvalidScheduleError, nextRunAfter, parseSchedule, type Schedule } from './schedule.ts';

/**
 * The local stack's pg_cron scheduler: what pg_cron's background worker does on Supabase. Every
 * tick it reads cron.job (as the stack's superuser), starts the jobs that are due, each on a
 * connection of its own in the job's database as the job's owner (`username`), and records each
 * run in cron.job_run_details: `starting`, then `running` with the backend's pid, then
 * `succeeded` with the last statement's command tag or `failed` with the error's message. A job
 * runs at most once at a time: a run due while the previous one is still going is queued (one,
 * not one per tick) and starts when it ends, as pg_cron documents.
 */
export interface CronRunner {
  /** Stops scheduling; runs still going are cancelled and recorded as failed. */
  stop(): Promise<void>;
}

interface JobRow {
  jobid: string;
  schedule: string;
  command: string;
  database: string;
  username: string;
}

interface JobState {
  schedule: string;
  parsed: Schedule | undefined;
  /** Undefined: never (a schedule that can't be read, or a date that never comes). */
  next: Date | undefined;
  running: Promise<void> | undefined;
  /** A run fell due while one was going: start another as soon as it ends. */
  queued: boolean;
  /** The definition the queued run uses (the latest read). */
  job: JobRow;
}

export interface CronRunnerOptions {
  /** A superuser's connection string: the runner reads every job and acts as each owner. */
  url: string;
  log: (line: string) => void;
  /** How often due jobs are looked for; 1 s is the finest schedule. */
  tickMs?: number;
}

/** pg_cron's return_message for a statement that succeeded: its command tag. */
export function commandTag(result: Pick<pg.QueryResult, 'command' | 'rowCount'>): string {
  if (!result.command) return '';
  if (result.rowCount === null) return result.command;
  return result.command === 'INSERT'
    ? `INSERT 0 ${result.rowCount}`
    : `${result.command} ${result.rowCount}`;
}

function urlForDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function startCronRunner(options: CronRunnerOptions): Promise<CronRunner> {
  const { url, log } = options;
  const tickMs = options.tickMs ?? 1000;
  const states = new Map<string, JobState>();
  /** The backend of each run going, by run: stopping the stack ends them. */
  const runningPids = new Map<string, number>();
  const connectedAs = decodeURIComponent(new URL(url).username);
  let control: pg.Client | undefined;
  let stopped = false;
  let ticking = false;
  let timer: NodeJS.Timeout | undefined;

  const controlClient = async (): Promise<pg.Client> => {
    if (control) return control;
    const client = new pg.Client({ connectionString: url, application_name: 'pg_cron scheduler' });
    client.on('error', (error) => {
      log(`cron: scheduler connection lost (${error.message}); reconnecting`);
      if (control === client) control = undefined;
      void client.end().catch(() => undefined);
    });
    await client.connect();
    control = client;
    return client;
  };

  const record = async (sql: string, values: unknown[]) => {
    const client = await controlClient();
    return client.query<{ runid: string }>(sql, values);
  };

  const runJob = async (job: JobRow): Promise<void> => {
    const started = await record(
      `insert into cron.job_run_details (jobid, database, username, command, status, start_time)
       values ($1, $2, $3, $4, 'starting', now()) returning runid`,
      [job.jobid, job.database, job.username, job.command],
    );
    const runid = started.rows[0]?.runid;
    const finish = (status: 'succeeded' | 'failed', message: string) =>
      record(
        `update cron.job_run_details set status = $2, return_message = $3, end_time = now()
         where runid = $1`,
        [runid, status, message],
      );
    const client = new pg.Client({
      connectionString: urlForDatabase(url, job.database),
      application_name: `pg_cron job ${job.jobid}`,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
        ?.pid;
      if (runid !== undefined && pid !== undefined) runningPids.set(runid, pid);
      await record(
        `update cron.job_run_details set status = 'running', job_pid = $2 where runid = $1`,
        [runid, pid],
      );
      // As pg_cron does, the command runs as the job's owner: the session becomes that role.
      if (job.username !== connectedAs) {
        await client.query(`set session authorization ${quoteIdent(job.username)}`);
      }
      // The simple protocol, as pg_cron: a command may hold several statements; the last tells.
      const results = (await client.query(job.command)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(results) ? results.at(-1) : results;
      await finish('succeeded', last ? commandTag(last) : '');
    } catch (error) {
      const message = stopped
        ? 'job canceled: the local stack stopped'
        : error instanceof Error
          ? error.message
          : String(error);
      await finish('failed', message).catch((recordError: unknown) =>
        log(
          `cron: job ${job.jobid} failed (${message}) and could not be recorded: ${String(recordError)}`,
        ),
      );
    } finally {
      if (runid !== undefined) runningPids.delete(runid);
      await client.end().catch(() => undefined);
    }
  };

  const start = (state: JobState) => {
    state.running = runJob(state.job)
      .catch((error: unknown) => log(`cron: job ${state.job.jobid}: ${String(error)}`))
      .finally(() => {
        state.running = undefined;
        if (state.queued && !stopped && states.get(state.job.jobid) === state) {
          state.queued = false;
          start(state);
        }
      });
  };

  const tick = async () => {
    const client = await controlClient();
    const present = await client.query<{ ready: boolean }>(
      `select to_regclass('cron.job') is not null as ready`,
    );
    if (!present.rows[0]?.ready) return;
    const { rows } = await client.query<JobRow>(
      `select jobid::text, schedule, command, database, username from cron.job where active`,
    );
    const now = new Date();
    const seen = new Set<string>();
    for (const job of rows) {
      seen.add(job.jobid);
      let state = states.get(job.jobid);
      if (!state) {
        state = {
          schedule: '',
          parsed: undefined,
          next: now,
          running: undefined,
          queued: false,
          job,
        };
        states.set(job.jobid, state);
      }
      state.job = job;
      // A new or changed schedule counts from now. The state stays the same object: a run going
      // clears its own `running` when it ends.
      if (state.schedule !== job.schedule) {
        state.schedule = job.schedule;
        state.parsed = undefined;
        state.next = undefined;
        try {
          state.parsed = parseSchedule(job.schedule);
          state.next = nextRunAfter(state.parsed, now);
        } catch (error) {
          if (!(error instanceof InvalidScheduleError)) throw error;
          log(`cron: job ${job.jobid} is skipped: ${error.message}`);
        }
      }
      if (!state.parsed || state.next === undefined || now < state.next) continue;
      state.next = nextRunAfter(state.parsed, now);
      if (state.running) state.queued = true;
      else start(state);
    }
    // Unscheduled or deactivated: no more runs (one going ends on its own).
    for (const jobid of states.keys()) if (!seen.has(jobid)) states.delete(jobid);
  };

  const loop = () => {
    if (stopped) return;
    // Ticks land just after each whole second, so '* * * * *' runs at :00, as cron does.
    const delay = tickMs >= 1000 ? tickMs - (Date.now() % 1000) + 5 : tickMs;
    timer = setTimeout(() => {
      if (ticking) return loop();
      ticking = true;
      tick()
        .catch((error: unknown) => log(`cron: ${String(error)}`))
        .finally(() => {
          ticking = false;
          loop();
        });
    }, delay);
  };

  // pg_cron, starting, ends the runs a previous scheduler left open.
  const client = await controlClient();
  await client.query(`
    do $$
    begin
      if to_regclass('cron.job_run_details') is not null then
        update cron.job_run_details set status = 'failed', return_message = 'server restarted',
          end_time = coalesce(end_time, now())
        where status in ('starting', 'running');
      end if;
    end $$`);
  loop();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const pids = [...runningPids.values()];
      if (pids.length > 0 && control) {
        // Each run's command fails, and its run is recorded as cancelled.
        await control
          .query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids])
          .catch((error: unknown) => log(`cron: could not end running jobs: ${String(error)}`));
      }
      await Promise.all([...states.values()].map((state) => state.running));
      await control?.end().catch(() => undefined);
    },
  };
}
