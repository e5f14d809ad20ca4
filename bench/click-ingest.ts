/**
 * Postgres CPU per click of app.record_clicks, three releases side by side in the same database
 * and run (bench/redirect.ts --compare):
 *   - before: the version of migration 002900, installed from its migration's text into schema
 *     bench_before with the plan-limit functions it called then (app.account_price_id,
 *     app.account_limit), the clicks table with its btree on (alias_id, time);
 *   - main: the version of migration 003400 (schema bench_main), the same btree;
 *   - now: app.record_clicks as migrated, the clicks table as migrated (no such btree since
 *     migration 006900).
 * All write the same tables; the btree is built before the rounds of a release that had it and
 * dropped before the others (outside the measured time). Identical batches of 500 clicks, as
 * the redirector sends them, go through each in turn, in rotating rounds (the machine's other
 * load then weighs on all alike), for two kinds of batch:
 *   - one account: the redirect benchmark's 1,000 hot links, all of one account;
 *   - many accounts: 250 accounts of two links each, every batch spread over all of them.
 * The accounts are on the enterprise plan so that no limit stops the counting.
 *
 * Each gets the batches as the redirector of its release sent them: 002900 a JSON array, the
 * later ones an array per column.
 *
 * Two figures per release: the CPU of the backend that ran the batches (/proc/<pid>/schedstat),
 * and that of every Postgres process meanwhile (bench/postgres-cpu.ts: the backend plus the WAL
 * writer, checkpointer, autovacuum… and whatever else the stack's processes asked of the server
 * during the run, which is little), both divided by the clicks sent.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { REPO_ROOT } from '../supabase/local/src/config.ts';
import { PostgresCpu, processCpuNs } from './postgres-cpu.ts';

const MIGRATIONS = path.join(REPO_ROOT, 'supabase/migrations');
/** Where each function of the release before migration 20261122003400 was last defined. */
const BEFORE = [
  ['20261122000120_billing.sql', 'account_price_id'],
  ['20261122001100_redirect.sql', 'account_limit'],
  ['20261122002900_routing_rules.sql', 'record_clicks'],
] as const;
/** The array form of migration 003400 (the first app.record_clicks it defines). */
const MAIN = ['20261122003400_click_ingest.sql', 'record_clicks'] as const;
const LINK_INDEX = 'clicks_alias_id_time_idx';
const BATCH = 500;
const MANY_ACCOUNTS = 250;

/** The last (or first) `create [or replace] function app.<name>(` … `$$;` of a migration file. */
function functionSource(file: string, name: string, which: 'first' | 'last' = 'last'): string {
  const text = fs.readFileSync(path.join(MIGRATIONS, file), 'utf8');
  const starts = [
    ...text.matchAll(new RegExp(`create (or replace )?function app\\.${name}\\(`, 'g')),
  ];
  const start = (which === 'first' ? starts[0] : starts.at(-1))?.index;
  if (start === undefined) throw new Error(`${file}: no function app.${name}`);
  const bodyStart = text.indexOf('$$', start);
  const bodyEnd = text.indexOf('$$;', bodyStart + 2);
  if (bodyStart < 0 || bodyEnd < 0) throw new Error(`${file}: app.${name} has no $$ body`);
  return text.slice(start, bodyEnd + 3);
}

/**
 * Installs the app.record_clicks of the release before 003400 (and what it called) as
 * bench_before.*, and that of 003400 as bench_main.record_clicks.
 */
export async function installPreviousRecordClicks(db: pg.Client): Promise<void> {
  const renamed = (sql: string) =>
    BEFORE.reduce(
      (text, [, name]) => text.replaceAll(`app.${name}(`, `bench_before.${name}(`),
      sql.replace(/^create (or replace )?function/, 'create function'),
    );
  await db.query('drop schema if exists bench_before cascade; create schema bench_before');
  for (const [file, name] of BEFORE) await db.query(renamed(functionSource(file, name)));
  await db.query('drop schema if exists bench_main cascade; create schema bench_main');
  await db.query(
    functionSource(MAIN[0], MAIN[1], 'first').replace(
      /^create (or replace )?function app\./,
      'create function bench_main.',
    ),
  );
}

/** The clicks table as a release had it: with or without the btree on (alias_id, time). */
async function setLinkIndex(db: pg.Client, present: boolean): Promise<void> {
  await db.query(
    present
      ? `create index if not exists ${LINK_INDEX} on public.clicks (alias_id, time)`
      : `drop index if exists public.${LINK_INDEX}`,
  );
}

/** 250 accounts with two links each on `domain`, and every bench account on enterprise. */
async function createAccounts(db: pg.Client, domain: string): Promise<void> {
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'ingest' || g || '@redirect.test',
       now(), now(), now()
     from generate_series(1, $1) as g`,
    [MANY_ACCOUNTS],
  );
  await db.query(
    `with owners as (
       select p.id as user_id, p.personal_account_id as account_id
       from public.profiles p where p.email like 'ingest%@redirect.test'
     ),
     urls as (
       insert into public.long_urls (account_id, url)
       select o.account_id, 'https://example.com/ingest/' || o.account_id || '/' || g
       from owners o, generate_series(0, 1) as g
       returning id, account_id, url
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
     select u.id, u.account_id, d.id, 'i' || md5(u.url), o.user_id
     from urls u join owners o on o.account_id = u.account_id, public.domains d
     where d.domain = $1`,
    [domain],
  );
  await db.query(
    `insert into public.subscriptions (account_id, plan_id, price_id, name, interval)
     select distinct a.account_id, p.id, pp.id, p.name, pp.interval
     from public.aliases a
     join public.domains d on d.id = a.domain_id and d.domain = $1,
       public.plans p join public.plan_prices pp on pp.plan_id = p.id
     where p.name = 'enterprise' and pp.interval = 'monthly'`,
    [domain],
  );
}

/** What the redirector's writer makes of the benchmark's visitors (r/clicks.ts ClickRows). */
const VISITORS = [
  { device: 'mobile', browser: 'Mobile Safari', os: 'iOS' },
  { device: 'desktop', browser: 'Chrome', os: 'Windows' },
  { device: 'desktop', browser: 'Safari', os: 'macOS' },
  { device: 'mobile', browser: 'Chrome', os: 'Android' },
];

interface ClickRow {
  time: string;
  alias_id: string;
  route_id: null;
  country: string;
  device: string;
  browser: string;
  os: string;
  referrer_host: null;
  is_bot: boolean;
  is_qr: boolean;
  ip_hash: string;
}

function batches(aliasIds: string[], count: number): ClickRow[][] {
  let n = 0;
  return Array.from({ length: count }, () =>
    Array.from({ length: BATCH }, () => {
      const i = n++;
      return {
        time: new Date().toISOString(),
        alias_id: aliasIds[i % aliasIds.length]!,
        route_id: null,
        country: 'GB',
        ...VISITORS[i % VISITORS.length]!,
        referrer_host: null,
        is_bot: false,
        is_qr: false,
        ip_hash: createHash('sha256')
          .update(`81.2.69.${i % 250}`)
          .digest('hex'),
      };
    }),
  );
}

/**
 * The call each version took from the redirector: the previous one a JSON array of objects,
 * the current one an array per column (as r/clicks.ts sends them).
 */
function call(fn: string, rows: ClickRow[]): [string, unknown[]] {
  if (fn.startsWith('bench_before.'))
    return [`select * from ${fn}($1::text::json)`, [JSON.stringify(rows)]];
  const columns = [
    ['time', 'timestamptz'],
    ['alias_id', 'uuid'],
    ['route_id', 'uuid'],
    ['country', 'text'],
    ['device', 'text'],
    ['browser', 'text'],
    ['os', 'text'],
    ['referrer_host', 'text'],
    ['is_bot', 'boolean'],
    ['is_qr', 'boolean'],
    ['ip_hash', 'text'],
  ] as const;
  return [
    `select * from ${fn}(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`,
    columns.map(([key]) => rows.map((row) => row[key])),
  ];
}

interface Cost {
  backendNs: number;
  allNs: number;
  clicks: number;
}

async function replay(
  db: pg.Client,
  cpu: PostgresCpu,
  backend: number,
  fn: string,
  payloads: ClickRow[][],
): Promise<Cost> {
  const calls = payloads.map((rows) => call(fn, rows));
  const all = cpu.sample();
  const own = processCpuNs(backend)!;
  for (const [text, values] of calls) await db.query(text, values);
  return {
    backendNs: processCpuNs(backend)! - own,
    allNs: cpu.since(all),
    clicks: payloads.length * BATCH,
  };
}

const perClick = (ns: number, clicks: number) => ns / 1000 / clicks;

interface Release {
  label: string;
  fn: string;
  /** Whether the clicks table had its btree on (alias_id, time) then. */
  linkIndex: boolean;
}

/** The first is the reference the others are compared with. */
const RELEASES: readonly [Release, ...Release[]] = [
  { label: 'before (migration 002900)', fn: 'bench_before.record_clicks', linkIndex: true },
  { label: 'main (migration 003400)', fn: 'bench_main.record_clicks', linkIndex: true },
  { label: 'now', fn: 'app.record_clicks', linkIndex: false },
];

/**
 * Runs the comparison and answers the lines to print. `hotAliasIds`: the redirect benchmark's
 * hot links (one account), on `domain`.
 */
export async function compareClickIngest(
  db: pg.Client,
  domain: string,
  hotAliasIds: string[],
  { rounds = 6, batchesPerRound = 20 } = {},
): Promise<string[]> {
  await installPreviousRecordClicks(db);
  await createAccounts(db, domain);
  const { rows: many } = await db.query<{ id: string }>(
    `select a.id from public.aliases a where a.alias like 'i%' and a.domain_id =
       (select id from public.domains where domain = $1) order by md5(a.id::text)`,
    [domain],
  );
  const cpu = await PostgresCpu.of(db);
  const { rows } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
  const backend = rows[0]!.pid;
  const lines: string[] = [];
  for (const [label, aliasIds] of [
    ['one account (1,000 links)', hotAliasIds],
    [`${MANY_ACCOUNTS} accounts (2 links each)`, many.map((row) => row.id)],
  ] as const) {
    const totals = new Map<Release, Cost>();
    for (let round = 0; round < rounds; round++) {
      // Rotating which goes first, so none always meets a cache another warmed.
      const order = RELEASES.map((_, i) => RELEASES[(i + round) % RELEASES.length]!);
      for (const release of order) {
        await setLinkIndex(db, release.linkIndex);
        const cost = await replay(db, cpu, backend, release.fn, batches(aliasIds, batchesPerRound));
        const sum = totals.get(release) ?? { backendNs: 0, allNs: 0, clicks: 0 };
        totals.set(release, {
          backendNs: sum.backendNs + cost.backendNs,
          allNs: sum.allNs + cost.allNs,
          clicks: sum.clicks + cost.clicks,
        });
      }
    }
    const before = totals.get(RELEASES[0])!;
    const figures = (cost: Cost) =>
      `${perClick(cost.backendNs, cost.clicks).toFixed(1)} µs in its backend, ${perClick(cost.allNs, cost.clicks).toFixed(1)} µs in all Postgres processes`;
    lines.push(
      `  ${label}, ${(before.clicks / BATCH).toLocaleString('en-US')} batches of ${BATCH} each per release:`,
      ...RELEASES.map((release) => {
        const cost = totals.get(release)!;
        const share = ((cost.allNs / before.allNs) * 100).toFixed(0);
        return `    ${release.label.padEnd(28)} ${figures(cost)} (${share}% of before)`;
      }),
    );
  }
  await setLinkIndex(db, false);
  await db.query('drop schema bench_before cascade; drop schema bench_main cascade');
  return lines;
}
