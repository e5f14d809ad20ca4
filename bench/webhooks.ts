/**
 * Outgoing webhooks benchmark: N `link.clicked` events (clicks written as the redirect writes
 * them, in batches of 250) fanned out to 10 endpoints on a receiver on loopback, in a fresh stack
 * of its own. Prints delivery throughput (clicks delivered per second over all endpoints, and
 * requests per second) and the latency from each click's write to its delivery (p50, p99, max),
 * with the load average. Clicks leave in batches (one event per endpoint and flush of the cron job
 * webhook-flush-clicks, every 10 s by default), so the latency includes up to one flush interval.
 *
 *   npm run bench:webhooks
 *   BENCH_WEBHOOK_CLICKS=2000 BENCH_WEBHOOK_FLUSH='2 seconds' npm run bench:webhooks
 *
 * Ports 28321/28322/28324 and state dir .local/bench-webhooks (override with STACK_* variables).
 * The machine is shared (2 cores): figures vary with what else runs; run it more than once.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';

const CLICKS = Number(process.env.BENCH_WEBHOOK_CLICKS ?? '10000');
const ENDPOINTS = 10;
const FLUSH = process.env.BENCH_WEBHOOK_FLUSH ?? '10 seconds';
const INSERT_BATCH = 250;
if (!Number.isInteger(CLICKS) || CLICKS < 1 || CLICKS > 1_000_000)
  throw new Error('BENCH_WEBHOOK_CLICKS must be a count between 1 and 1000000');

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  process.env.STACK_GATEWAY_PORT ??= '28321';
  process.env.STACK_DB_PORT ??= '28322';
  process.env.STACK_MAIL_PORT ??= '28324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  const config = loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/bench-webhooks'),
  });
  fs.rmSync(config.stateDir, { recursive: true, force: true });

  // Click write time (ms) → how many of its deliveries are still expected; latencies collected.
  const latencies: number[] = [];
  let requests = 0;
  let firstDelivery = 0;
  let lastDelivery = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { clicks: { time: string }[] };
      };
      requests += 1;
      firstDelivery ||= now;
      lastDelivery = now;
      for (const click of body.data.clicks) latencies.push(now - Date.parse(click.time));
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  log('starting a fresh stack…');
  const stack = await startStack(config, () => {});
  const db = new pg.Pool({ connectionString: stack.env.DB_URL, max: 2 });
  try {
    const {
      rows: [user],
    } = await db.query<{ id: string }>(
      `insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'authenticated',
         'authenticated', 'bench-webhooks@shortlane.test', now(),
         '{"provider":"email","providers":["email"]}', '{"name":"Bench"}', now(), now())
       returning id`,
    );
    const userId = user!.id;
    const {
      rows: [profile],
    } = await db.query<{ account_id: string }>(
      'select personal_account_id as account_id from public.profiles where id = $1',
      [userId],
    );
    const accountId = profile!.account_id;
    await db.query(`update public.accounts set features = array['webhooks'] where id = $1`, [
      accountId,
    ]);
    for (let index = 0; index < ENDPOINTS; index += 1) {
      await db.query(
        `insert into public.webhook_endpoints (account_id, url, events)
         values ($1, $2, array['link.clicked'])`,
        [accountId, `${base}/endpoint-${index}`],
      );
    }
    const {
      rows: [link],
    } = await db.query<{ id: string }>(
      `with d as (insert into public.domains (domain, kind) values ('bench-webhooks.localhost',
         'common') returning id),
       l as (insert into public.long_urls (account_id, url)
         values ($1, 'https://example.com/bench') returning id)
       insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
       select l.id, $1, d.id, 'bench', $2 from l, d returning id`,
      [accountId, userId],
    );
    await db.query(
      `select cron.alter_job(jobid, schedule => $1) from cron.job
                    where jobname = 'webhook-flush-clicks'`,
      [FLUSH],
    );

    // The worker's first call boots its Deno process (seconds on a busy machine): warm it up so
    // the figures are the steady state's.
    const warm = await fetch(`${stack.env.SUPABASE_URL}/functions/v1/webhook-deliver`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.env.SUPABASE_SERVICE_ROLE_KEY}` },
    });
    if (!warm.ok) throw new Error(`webhook-deliver answered ${warm.status}`);
    await warm.body?.cancel();

    log(`writing ${CLICKS} clicks for ${ENDPOINTS} endpoints (flush every ${FLUSH})…`);
    const started = Date.now();
    for (let done = 0; done < CLICKS; done += INSERT_BATCH) {
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, country, device)
         select clock_timestamp(), $1, $2, 'DE', 'desktop' from generate_series(1, $3)`,
        [link!.id, accountId, Math.min(INSERT_BATCH, CLICKS - done)],
      );
    }
    const written = Date.now();
    const expected = CLICKS * ENDPOINTS;
    const deadline = Date.now() + 300_000;
    while (latencies.length < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (latencies.length < expected)
      throw new Error(`only ${latencies.length} of ${expected} click deliveries arrived`);
    const sorted = latencies.sort((a, b) => a - b);
    const seconds = (lastDelivery - firstDelivery) / 1000;
    const [one, five, fifteen] = os.loadavg().map((value) => value.toFixed(2));
    console.log('\nbench:webhooks');
    console.log(`  ${CLICKS} clicks written in ${((written - started) / 1000).toFixed(2)} s`);
    console.log(
      `  ${expected} click events to ${ENDPOINTS} endpoints in ${requests} requests, ` +
        `first to last delivery ${seconds.toFixed(2)} s: ` +
        `${Math.round(expected / Math.max(seconds, 0.001))} events/s, ` +
        `${(requests / Math.max(seconds, 0.001)).toFixed(1)} requests/s`,
    );
    console.log(
      `  click write → delivery: p50 ${percentile(sorted, 50)} ms, ` +
        `p99 ${percentile(sorted, 99)} ms, max ${sorted[sorted.length - 1]} ms ` +
        `(flush every ${FLUSH})`,
    );
    console.log(
      `  all delivered ${((lastDelivery - started) / 1000).toFixed(2)} s after the first write`,
    );
    console.log(`  load average ${one} ${five} ${fifteen} (${os.cpus().length} cores)`);
  } finally {
    await db.end();
    await stack.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
