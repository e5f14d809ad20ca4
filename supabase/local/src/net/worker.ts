import pg from 'pg';
import { sendRequest, type QueuedRequest, type ResponseRow } from './send.ts';

/**
 * The local stack's pg_net worker: what pg_net's background worker does on Supabase. It takes
 * committed requests from net.http_request_queue (woken by the queue's NOTIFY, which is delivered
 * at commit, and polling in case one was missed), sends them, and stores each outcome in
 * net._http_response under the request's id. Responses older than pg_net's default TTL (6 hours)
 * are deleted, as pg_net does.
 */
export interface NetWorker {
  /** Sends what is queued now (tests need not wait for a poll). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export interface NetWorkerOptions {
  url: string;
  allowedHosts: readonly string[];
  log: (line: string) => void;
  pollMs?: number;
  /** Requests taken per round. */
  batchSize?: number;
}

export const NET_CHANNEL = 'pg_net_request';

export async function startNetWorker(options: NetWorkerOptions): Promise<NetWorker> {
  const { url, allowedHosts, log } = options;
  const pollMs = options.pollMs ?? 2000;
  const batchSize = options.batchSize ?? 100;
  let client: pg.Client | undefined;
  let stopped = false;
  let draining: Promise<void> | undefined;
  let again = false;
  let lastCleanup = 0;

  const connect = async (): Promise<pg.Client> => {
    if (client) return client;
    const next = new pg.Client({ connectionString: url, application_name: 'pg_net worker' });
    next.on('notification', () => void drain());
    next.on('error', (error) => {
      log(`net: worker connection lost (${error.message}); reconnecting`);
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
    });
    await next.connect();
    await next.query(`listen ${NET_CHANNEL}`);
    client = next;
    return next;
  };

  const store = (db: pg.Client, rows: ResponseRow[]) =>
    db.query(
      `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
       select * from jsonb_to_recordset($1::jsonb) as r(id bigint, status_code integer,
         content_type text, headers jsonb, content text, timed_out boolean, error_msg text)`,
      [JSON.stringify(rows)],
    );

  const round = async (): Promise<number> => {
    const db = await connect();
    const ready = await db.query<{ ready: boolean }>(
      `select to_regclass('net.http_request_queue') is not null as ready`,
    );
    if (!ready.rows[0]?.ready) return 0;
    if (Date.now() - lastCleanup > 60_000) {
      lastCleanup = Date.now();
      await db.query(`delete from net._http_response where created < now() - interval '6 hours'`);
    }
    // Taken requests leave the queue, as with pg_net: a worker stopped mid-flight loses them.
    const { rows } = await db.query<QueuedRequest>(
      `delete from net.http_request_queue
       where id in (select id from net.http_request_queue order by id limit $1 for update skip locked)
       returning id::text, method, url, headers, body, timeout_milliseconds`,
      [batchSize],
    );
    if (rows.length === 0) return 0;
    const responses = await Promise.all(rows.map((row) => sendRequest(row, allowedHosts)));
    await store(db, responses);
    return rows.length;
  };

  const drain = (): Promise<void> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      do {
        again = false;
        while (!stopped && (await round()) === batchSize);
      } while (again && !stopped);
    })()
      .catch((error: unknown) => log(`net: ${String(error)}`))
      .finally(() => {
        draining = undefined;
      });
    return draining;
  };

  await connect();
  const timer = setInterval(() => void drain(), pollMs);
  timer.unref();
  void drain();

  return {
    drain,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await draining;
      await client?.end().catch(() => undefined);
    },
  };
}
