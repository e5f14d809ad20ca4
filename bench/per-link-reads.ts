/**
 * Per-link reads against the rollup mark's distance: a link's 30-day figures
 * (app.click_analytics) and its click count (app.link_click_count) read the rollups up to the
 * mark and raw clicks after it — the clicks of every link, by time (no per-link index on
 * public.clicks since migration 20261122006900). The bench fills the last 30 minutes with
 * BENCH_OPEN_CLICKS clicks of 1,000 other links (100,000: the rate at which an hour-aligned
 * mark, 30 minutes back on average, made a 30-day read 60–95 ms), gives the measured link a click
 * an hour for 30 days, and times the reads (median of 11) with the mark:
 *   1. 30–35 minutes back (what an hour-aligned mark averaged before migration 20261122006950);
 *   2. where app.advance_click_rollups puts it now (a 5-minute step, 30 s of grace: 0.5–5.5
 *      minutes back).
 * Both after the BRIN on time has summarized the new pages (autosummarize has autovacuum do it
 * within a minute of a range filling; the bench calls brin_summarize_new_values), and once before.
 * It also prints what the advance cost per click it rolled up (incremental: aggregated once,
 * added into the hourly rows) beside app.rollup_clicks rebuilding the same hours from raw.
 * Prints its figures; it is not a timed test.
 *
 *   npm run bench:per-link-reads
 *
 * Starts a stack of its own without the demo seed (ports 62321/62322/62324, state dir
 * .local/bench-per-link-reads, wiped first; override with the STACK_* variables) and stops it at
 * the end.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import {
  spawnStack,
  stackEnvOf,
  stopLeftovers,
  stopStack,
  untilHealthy,
} from './support/stack-process.ts';

const STACK_ENV = {
  STACK_GATEWAY_PORT: process.env.STACK_GATEWAY_PORT || '62321',
  STACK_DB_PORT: process.env.STACK_DB_PORT || '62322',
  STACK_MAIL_PORT: process.env.STACK_MAIL_PORT || '62324',
  STACK_STATE_DIR: path.resolve(
    REPO_ROOT,
    process.env.STACK_STATE_DIR || '.local/bench-per-link-reads',
  ),
  STACK_WATCH_FUNCTIONS: 'false',
  STACK_SEED: 'false',
};
Object.assign(process.env, STACK_ENV);

const OPEN_CLICKS = Number(process.env.BENCH_OPEN_CLICKS || 100_000);
const RUNS = 11;
const LINK = '00000000-0000-4000-8000-00000000be01';

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

async function median(db: pg.Client, query: string, values: unknown[]): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await db.query(query, values);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] ?? NaN;
}

async function reads(db: pg.Client) {
  const { rows } = await db.query<{ mark: Date; raw: string }>(
    `select s.rolled_until as mark, (select count(*) from public.clicks c
       where c.time >= s.rolled_until) as raw
     from app.click_rollup_state s`,
  );
  const state = rows[0];
  const analytics = await median(
    db,
    `select app.click_analytics('alias_id', $1, now() - interval '30 days', now(), 'day')`,
    [LINK],
  );
  const count = await median(db, 'select app.link_click_count($1)', [LINK]);
  return {
    mark: `${((Date.now() - (state?.mark.getTime() ?? 0)) / 60_000).toFixed(1)} min back`,
    raw: Number(state?.raw ?? 0),
    analytics,
    count,
  };
}

async function main() {
  const config = loadConfig({ externalDatabaseUrl: undefined });
  await stopLeftovers(STACK_ENV);
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  log(`starting a stack (no seed) on :${config.gatewayPort}, database :${config.dbPort}`);
  const stack = spawnStack(STACK_ENV);
  let db: pg.Client | undefined;
  try {
    await untilHealthy(stack, config, 120_000);
    db = new pg.Client({ connectionString: stackEnvOf(config).DB_URL });
    await db.connect();
    log(`${OPEN_CLICKS.toLocaleString('en')} clicks of 1,000 links over the last 30 minutes`);
    // Clicks have no foreign keys (deleted links' clicks go by trigger): ids are enough.
    await db.query(
      `insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
         is_bot, is_qr)
       select now() - (g::float8 / $1) * interval '30 minutes',
         ('00000000-0000-4000-8000-' || lpad(to_hex(g % 1000), 12, '0'))::uuid,
         '00000000-0000-4000-8000-00000000ac01', (array['US', 'DE', 'FR', 'JP'])[1 + g % 4],
         (array['desktop', 'mobile'])[1 + g % 2], 'Chrome', 'Windows', g % 10 = 0, false
       from generate_series(1, $1) as g`,
      [OPEN_CLICKS],
    );
    await db.query(
      `insert into public.clicks (time, alias_id, account_id, country, device, is_bot, is_qr)
       select now() - g * interval '1 hour' + interval '17 minutes', $1,
         '00000000-0000-4000-8000-00000000ac01', 'US', 'desktop', false, false
       from generate_series(0, 30 * 24) as g`,
      [LINK],
    );
    // The mark 30–35 minutes back, the hours before it rolled up: an hour-aligned mark's average.
    await db.query(
      `update app.click_rollup_state
       set rolled_until = date_bin(interval '5 minutes', now() - interval '30 minutes',
         timestamptz '2000-01-01 00:00:00+00')`,
    );
    await db.query(`select app.rollup_clicks(now() - interval '31 days', now())`);
    await db.query('analyze public.clicks');
    const unsummarized = await reads(db);
    // What autosummarize has autovacuum do within a minute of a page range filling.
    await db.query(
      `select brin_summarize_new_values(i.inhrelid::regclass) from pg_inherits i
       where i.inhparent = 'public.clicks_time_brin_idx'::regclass`,
    );
    const before = await reads(db);

    const { rows } = await db.query<{ rolled: string }>(
      `with m as (select rolled_until as mark from app.click_rollup_state)
       select (select count(*) from public.clicks c, m
         where c.time >= m.mark and c.time < app.click_rollup_mark(now())) as rolled`,
    );
    const rolled = Number(rows[0]?.rolled ?? 0);
    let started = performance.now();
    await db.query('select app.advance_click_rollups()');
    const advanceMs = performance.now() - started;
    const after = await reads(db);
    // The same clicks' hours rebuilt from raw (each stopping at the new mark).
    started = performance.now();
    await db.query(`select app.rollup_clicks(now() - interval '40 minutes', now())`);
    const rebuildMs = performance.now() - started;
    const { rows: rebuilt } = await db.query<{ n: string }>(
      `select count(*) as n from public.clicks c, app.click_rollup_state s
       where c.time >= date_bin('1 hour', now() - interval '40 minutes',
         timestamptz '2000-01-01 00:00:00+00') and c.time < s.rolled_until`,
    );
    const rebuiltClicks = Number(rebuilt[0]?.n ?? 0);

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      [
        '',
        `Per-link reads, ${OPEN_CLICKS.toLocaleString('en')} clicks in the last 30 minutes (${os.cpus().length} cores, load average ${loadAverage()}; other processes share this machine)`,
        '| mark | raw clicks after it | 30-day click_analytics (median of 11) | link_click_count |',
        '| --- | --- | --- | --- |',
        ...(
          [
            ['30–35 min back, new pages not yet summarized in the BRIN', unsummarized],
            ['30–35 min back (hourly mark, average)', before],
            ['advanced (5-minute steps)', after],
          ] as const
        ).map(
          ([name, r]) =>
            `| ${name} (${r.mark}) | ${r.raw.toLocaleString('en')} | ${ms(r.analytics)} | ${ms(r.count)} |`,
        ),
        '',
        `advance (incremental): ${ms(advanceMs)} for ${rolled.toLocaleString('en')} clicks, ${((advanceMs * 1000) / Math.max(rolled, 1)).toFixed(1)} µs a click`,
        `rollup_clicks (rebuild from raw): ${ms(rebuildMs)} for ${rebuiltClicks.toLocaleString('en')} clicks, ${((rebuildMs * 1000) / Math.max(rebuiltClicks, 1)).toFixed(1)} µs a click`,
        '',
      ].join('\n'),
    );
  } finally {
    await db?.end().catch(() => undefined);
    await stopStack(stack);
  }
}

await main();
