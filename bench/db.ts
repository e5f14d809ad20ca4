/**
 * Database benchmark for the link side: scales the seeded data to BENCH_LINKS links (default
 * 1,000,000) and BENCH_CLICKS clicks (default 10,000,000) in a stack of its own, then prints the
 * median timings of the queries the portal runs most, each as a signed-in user (row-level
 * security included):
 *   - a 50-row page of an account's links (first page, and a keyset page deep in the list);
 *   - substring search on destination and alias, for words in 36 %, 5 %, 2.5 %, 0.3 %, 0.01 % and
 *     none of the links and an alias fragment (a walk of the newest links, or the trigram indexes;
 *     target < 20 ms);
 *   - the portal's list search (free text, alias:, tag:) as the dashboard asks it through
 *     PostgREST, with the portal's own code: the former aliases-table query (ILIKE filters,
 *     OFFSET) beside search_links, and search_links alone in SQL with the list's parameters
 *     (target < 20 ms);
 *   - one link's clicks over 1h / 24h / 7d / 30d from the hourly rollups (target < 20 ms);
 *   - an account's top countries over 30 days (target < 50 ms).
 *
 *   npm run bench:db            reuse the bench stack's data when it is already scaled
 *   npm run bench:db -- --fresh wipe .local/bench-db and generate everything again
 *
 * Ports 64321/64322/64324 and state dir .local/bench-db (override with STACK_* variables).
 * Generation is set-based SQL: users through the sign-up trigger, links in one statement each,
 * clicks through the seed's demo.add_clicks in chunks, rollups day by day with
 * app.rollup_clicks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import ws from 'ws';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import type { Database } from '../shared/src/database.types.ts';
import {
  fetchLinkList,
  fetchLinkSearchPage,
  type LinkListPage,
  type LinkListParams,
  type LinkSearch,
} from '../portal/src/data/links-list-query.ts';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { signToken } from '../supabase/local/src/jwt.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { generateLinks } from './link-data.ts';
import { processCpuNs } from './postgres-cpu.ts';

const LINKS = positiveInt('BENCH_LINKS', 1_000_000);
const CLICKS = positiveInt('BENCH_CLICKS', 10_000_000);
const ACCOUNTS = positiveInt('BENCH_ACCOUNTS', 2_000);
/** The heavy customer every timing is taken for owns this share of all links. */
const BIG_ACCOUNT_SHARE = 0.1;
const CLICK_CHUNK = 1_000_000;
/** The seed's four common domains (supabase/seeds). */
const SEEDED_DOMAIN_IDS = [
  '00000000-0000-4000-8000-000000001001',
  '00000000-0000-4000-8000-000000001002',
  '00000000-0000-4000-8000-000000001003',
  '00000000-0000-4000-8000-000000001004',
];
const RUNS = 11;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

// --- Generation -------------------------------------------------------------------------------

const GENERATE_USERS = `
  insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at,
    raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated',
    'authenticated', 'bench-' || g || '@bench.test', now(), '{"provider":"email"}',
    jsonb_build_object('name', 'Bench ' || g), now(), now()
  from generate_series(1, $1::integer) as g`;

const REMEMBER_ACCOUNTS = `
  create table bench.accounts as
  select (row_number() over (order by u.created_at, u.email))::integer as n, p.id as user_id,
    p.personal_account_id as account_id
  from auth.users u join public.profiles p on p.id = u.id
  where u.email like 'bench-%@bench.test';
  alter table bench.accounts add primary key (n)`;

async function generate(db: pg.Client) {
  await db.query(`create schema bench`);
  await timed(`${ACCOUNTS} users (sign-up trigger: profile + account)`, () =>
    db.query(GENERATE_USERS, [ACCOUNTS]),
  );
  await db.query(REMEMBER_ACCOUNTS);
  await generateLinks(db, {
    links: LINKS,
    heavyLinks: Math.round(LINKS * BIG_ACCOUNT_SHARE),
    domainIds: SEEDED_DOMAIN_IDS,
    timed,
  });

  for (let done = 0; done < CLICKS; done += CLICK_CHUNK) {
    const count = Math.min(CLICK_CHUNK, CLICKS - done);
    await timed(`clicks ${done + count}/${CLICKS}`, () =>
      db.query('select demo.add_clicks($1)', [count]),
    );
  }
  await timed('analyze clicks', () => db.query('analyze public.clicks'));
  await timed('rollups, day by day over 31 days', async () => {
    for (let day = 31; day > 0; day--) {
      await db.query(
        `select app.rollup_clicks(date_trunc('day', now(), 'UTC') - make_interval(days => $1),
           date_trunc('day', now(), 'UTC') - make_interval(days => $1 - 1))`,
        [day],
      );
    }
    await db.query(
      `select app.rollup_clicks(date_trunc('day', now(), 'UTC'), now() + interval '1 hour')`,
    );
  });
  await timed('analyze rollups', () =>
    db.query('analyze public.click_stats_hourly, public.account_click_stats_hourly'),
  );
  await db.query('vacuum (analyze) public.aliases, public.long_urls');
}

/**
 * Tags on the heavy account's links for the tag: searches (added to data generated before they
 * existed too): "bench-five" on every 20th link, "bench-rare" on every 300th.
 */
async function ensureTags(db: pg.Client) {
  const done = await db.query(`select 1 from public.tags where name = 'bench-five' limit 1`);
  if (done.rowCount) return;
  await timed('tags on the heavy account (5% and 0.3% of its links)', async () => {
    await db.query(`
      with account as (select account_id from bench.accounts where n = 1),
      tags as (
        insert into public.tags (account_id, name)
        select account_id, name from account, unnest('{bench-five,bench-rare}'::text[]) as name
        returning id, account_id, name
      ),
      links as (
        select a.id, row_number() over (order by a.created_at, a.id) as g
        from public.aliases a join account using (account_id)
      )
      insert into public.alias_tags (alias_id, tag_id, account_id)
      select l.id, t.id, t.account_id from links l join tags t
        on (t.name = 'bench-five' and l.g % 20 = 0) or (t.name = 'bench-rare' and l.g % 300 = 0)`);
    await db.query('analyze public.tags, public.alias_tags');
  });
}

// --- Measurement ------------------------------------------------------------------------------

interface Subject {
  userId: string;
  accountId: string;
  /** The account's busiest link. */
  hotAliasId: string;
  /** Part of one of the account's aliases. */
  aliasFragment: string;
  /** The cursor of a page deep in the account's list. */
  deepCursor: { createdAt: string; id: string };
}

async function subject(db: pg.Client): Promise<Subject> {
  const { rows } = await db.query<{ user_id: string; account_id: string }>(
    `select user_id, account_id from bench.accounts where n = 1`,
  );
  const account = rows[0];
  if (!account) throw new Error('No bench account: run with --fresh');
  const hot = await db.query<{ alias_id: string }>(
    `select alias_id from public.click_stats_hourly where account_id = $1
     group by alias_id order by sum(clicks) desc limit 1`,
    [account.account_id],
  );
  const sample = await db.query<{ alias: string }>(
    `select alias::text from public.aliases where account_id = $1 and alias ~ '^[0-9a-f]{8}$'
     order by id limit 1`,
    [account.account_id],
  );
  const deep = await db.query<{ created_at: Date; id: string }>(
    `select created_at, id from public.aliases where account_id = $1
     order by created_at desc, id desc
     offset least(5000, (select count(*) / 2 from public.aliases where account_id = $1)) limit 1`,
    [account.account_id],
  );
  const hotAliasId = hot.rows[0]?.alias_id;
  const alias = sample.rows[0]?.alias;
  const cursor = deep.rows[0];
  if (!hotAliasId || !alias || !cursor)
    throw new Error('The bench data is incomplete: run with --fresh');
  return {
    userId: account.user_id,
    accountId: account.account_id,
    hotAliasId,
    aliasFragment: alias.slice(1, 6),
    deepCursor: { createdAt: cursor.created_at.toISOString(), id: cursor.id },
  };
}

interface Case {
  name: string;
  targetMs?: number;
  sql: string;
  params: unknown[];
}

function cases(s: Subject): Case[] {
  const page = `select a.id, a.alias, a.status, a.expires_at, a.created_at, u.url, d.domain
    from public.aliases a
    join public.long_urls u on u.id = a.long_url_id
    join public.domains d on d.id = a.domain_id
    where a.account_id = $1 and a.status <> 'deleted'`;
  const linkClicks = `select coalesce(sum(clicks), 0) as clicks, coalesce(sum(bot_clicks), 0) as bots,
      coalesce(sum(qr_clicks), 0) as qr
    from public.click_stats_hourly
    where alias_id = $1
      and hour >= date_bin('1 hour', now() - $2::interval, timestamptz '2000-01-01')`;
  return [
    {
      name: 'link page: first 50',
      sql: `${page} order by a.created_at desc, a.id desc limit 50`,
      params: [s.accountId],
    },
    {
      name: 'link page: 50 after 5,000 (keyset)',
      sql: `${page} and (a.created_at, a.id) < ($2, $3) order by a.created_at desc, a.id desc limit 50`,
      params: [s.accountId, s.deepCursor.createdAt, s.deepCursor.id],
    },
    {
      name: 'search: destination contains "spring-sale"',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'spring-sale')`,
      params: [s.accountId],
    },
    {
      name: `search: alias contains "${s.aliasFragment}"`,
      targetMs: 20,
      sql: `select id from public.search_links($1, $2)`,
      params: [s.accountId, s.aliasFragment],
    },
    {
      name: 'search: word in 5% of links "podcast" (first 50)',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'podcast')`,
      params: [s.accountId],
    },
    {
      name: 'search: in 2.5% of links "pricing-plans/" (first 50)',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'pricing-plans/')`,
      params: [s.accountId],
    },
    {
      name: 'search: in 0.3% of links "podcast-1" (first 50)',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'podcast-1')`,
      params: [s.accountId],
    },
    {
      name: 'search: in no link "blog/pod"',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'blog/pod')`,
      params: [s.accountId],
    },
    {
      name: 'search: common word "newsletter" (first 50)',
      targetMs: 20,
      sql: `select id from public.search_links($1, 'newsletter')`,
      params: [s.accountId],
    },
    ...['1 hour', '24 hours', '7 days', '30 days'].map((period) => ({
      name: `busiest link clicks, last ${period} (rollups)`,
      targetMs: 20,
      sql: linkClicks,
      params: [s.hotAliasId, period],
    })),
    {
      name: 'busiest link hourly series, 7 days (rollups)',
      targetMs: 20,
      sql: `select hour, clicks from public.click_stats_hourly
        where alias_id = $1 and hour >= now() - interval '7 days' order by hour`,
      params: [s.hotAliasId],
    },
    {
      name: 'account top 10 countries, 30 days (rollups)',
      targetMs: 50,
      sql: `select e.key as country, sum(e.value::bigint) as clicks
        from public.account_click_stats_hourly s
        cross join lateral jsonb_each_text(s.countries) as e
        where s.account_id = $1 and s.hour >= now() - interval '30 days'
        group by e.key order by clicks desc limit 10`,
      params: [s.accountId],
    },
  ];
}

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;

/** The portal's searches, by what the search box holds. */
const PORTAL_SEARCHES = (s: Subject): { name: string; search: LinkSearch; page?: number }[] => [
  { name: 'free text, 5% "podcast"', search: { field: 'any', term: 'podcast' } },
  { name: 'free text, 5% "podcast", page 4', search: { field: 'any', term: 'podcast' }, page: 4 },
  { name: 'free text, 0.3% "podcast-1"', search: { field: 'any', term: 'podcast-1' } },
  { name: 'free text, no match "blog/pod"', search: { field: 'any', term: 'blog/pod' } },
  { name: `alias:${s.aliasFragment}`, search: { field: 'alias', term: s.aliasFragment } },
  { name: 'tag:bench-five (5%)', search: { field: 'tag', term: 'bench-five' } },
  { name: 'tag:bench-rare (0.3%)', search: { field: 'tag', term: 'bench-rare' } },
];

/** search_links alone, with the parameters the dashboard sends for these searches. */
function functionCases(s: Subject): Case[] {
  return PORTAL_SEARCHES(s)
    .filter((c) => c.page === undefined)
    .map((c) => ({
      name: `portal search_links: ${c.name}`,
      targetMs: 20,
      sql: `select id from public.search_links(p_account_id => $1, p_query => $2, p_field => $3,
        p_state => 'active', p_limit => 26)`,
      params: [s.accountId, c.search.term, c.search.field],
    }));
}

/**
 * The dashboard's search as the user's browser asks it (through the gateway and PostgREST, the
 * portal's own request code): the former aliases-table query, and search_links. A page after the
 * first asks the former query by OFFSET, search_links after the previous page's last link.
 */
async function portalSearches(
  s: Subject,
  env: { SUPABASE_URL: string; SUPABASE_ANON_KEY: string; SUPABASE_JWT_SECRET: string },
) {
  const token = await signToken(env.SUPABASE_JWT_SECRET, {
    sub: s.userId,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  const supabase = createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { authorization: `Bearer ${token}` } },
    // Node 20 has no global WebSocket, which supabase-js needs even unused (as bench/stack.ts).
    realtime: { transport: ws as unknown as RealtimeTransport },
  });
  const time = async (work: () => Promise<LinkListPage>) => {
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      rows = (await work()).items.length;
      if (run > 0) times.push(performance.now() - started);
    }
    return { rows, ms: median(times) };
  };
  log(`the portal's search through PostgREST (active links, 25 a page); load ${loadAverage()}`);
  console.log(
    `${'search box'.padEnd(36)} ${'former query'.padStart(18)} ${'search_links'.padStart(18)}  ratio`,
  );
  for (const c of PORTAL_SEARCHES(s)) {
    const params: LinkListParams = {
      scope: { accountId: s.accountId },
      state: 'active',
      search: c.search,
      page: c.page ?? 1,
      perPage: 25,
    };
    // The cursor the portal holds by then: the last link of the page before.
    let after: { createdAt: string; id: string } | null = null;
    for (let page = 1; page < params.page; page++) {
      const previous = await fetchLinkSearchPage(supabase, { ...params, page }, after);
      const last = previous.items.at(-1);
      if (!last) throw new Error(`${c.name}: no page ${page + 1}`);
      after = { createdAt: last.createdAt, id: last.id };
    }
    const former = await time(() => fetchLinkList(supabase, params));
    const current = await time(() => fetchLinkSearchPage(supabase, params, after));
    if (former.rows !== current.rows) {
      throw new Error(`${c.name}: ${former.rows} rows before, ${current.rows} with search_links`);
    }
    console.log(
      `${c.name.padEnd(36)} ${`${former.rows} rows ${former.ms.toFixed(2)} ms`.padStart(18)} ${`${current.rows} rows ${current.ms.toFixed(2)} ms`.padStart(18)}  ${(former.ms / current.ms).toFixed(1)}x`,
    );
  }
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Runs a case as the user (role authenticated, their JWT claims), RUNS times after a warm-up.
 * Beside the client's and the server's time, the CPU the connection's backend spent on the
 * query (from /proc): on a shared machine the times mostly measure the wait for a core.
 */
async function measure(db: pg.Client, userId: string, c: Case) {
  const claims = JSON.stringify({ sub: userId, role: 'authenticated', aal: 'aal1' });
  const backend = (await db.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  const client: number[] = [];
  const server: number[] = [];
  const cpu: number[] = [];
  let rows = 0;
  for (let run = 0; run <= RUNS; run++) {
    await db.query('begin');
    try {
      await db.query(`set local role authenticated`);
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      const cpuBefore = processCpuNs(backend) ?? NaN;
      const started = performance.now();
      const result = await db.query(c.sql, c.params);
      const elapsed = performance.now() - started;
      const cpuMs = ((processCpuNs(backend) ?? NaN) - cpuBefore) / 1e6;
      const explained = await db.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
        `explain (analyze, format json) ${c.sql}`,
        c.params,
      );
      if (run > 0) {
        client.push(elapsed);
        cpu.push(cpuMs);
        server.push(explained.rows[0]?.['QUERY PLAN'][0]?.['Execution Time'] ?? NaN);
      }
      rows = result.rowCount ?? 0;
    } finally {
      await db.query('rollback');
    }
  }
  return { rows, clientMs: median(client), serverMs: median(server), cpuMs: median(cpu) };
}

async function counts(db: pg.Client) {
  const { rows } = await db.query<Record<string, string>>(`select
    (select count(*) from public.aliases) as links,
    (select count(*) from public.clicks) as clicks,
    (select count(*) from public.click_stats_hourly) as link_hours,
    (select count(*) from public.account_click_stats_hourly) as account_hours,
    pg_size_pretty(pg_database_size(current_database())) as size`);
  return rows[0];
}

// --- Main -------------------------------------------------------------------------------------

async function main() {
  process.env.STACK_GATEWAY_PORT ??= '64321';
  process.env.STACK_DB_PORT ??= '64322';
  process.env.STACK_MAIL_PORT ??= '64324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  const config = loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/bench-db'),
    seed: true,
  });
  if (process.argv.includes('--fresh'))
    fs.rmSync(config.stateDir, { recursive: true, force: true });
  const stack = await timed('stack up (migrations and seed when new)', () =>
    startStack(config, () => {}),
  );
  const db = new pg.Client({ connectionString: stack.env.DB_URL });
  await db.connect();
  try {
    const scaled = await db.query(`select to_regclass('bench.accounts') is not null as ready`);
    if (scaled.rows[0]?.ready) log('reusing the scaled data (pass --fresh to generate it again)');
    else await timed('generation, in all', () => generate(db));
    await ensureTags(db);
    console.log(JSON.stringify(await counts(db)));
    const s = await subject(db);
    const { rows } = await db.query<{ n: string }>(
      `select count(*) as n from public.aliases where account_id = $1`,
      [s.accountId],
    );
    log(
      `timings for an account with ${rows[0]?.n} links; median of ${RUNS} runs, as that user (RLS on)`,
    );
    log(`load ${os.loadavg()[0]!.toFixed(1)} (1 min)`);
    console.log(
      `${'query'.padEnd(52)} ${'rows'.padStart(5)} ${'client'.padStart(9)} ${'server'.padStart(9)} ${'cpu'.padStart(9)}  target`,
    );
    for (const c of [...cases(s), ...functionCases(s)]) {
      const r = await measure(db, s.userId, c);
      const verdict =
        c.targetMs === undefined
          ? ''
          : r.clientMs <= c.targetMs
            ? `< ${c.targetMs} ms ok`
            : `> ${c.targetMs} ms MISSED`;
      console.log(
        `${c.name.padEnd(52)} ${String(r.rows).padStart(5)} ${r.clientMs.toFixed(2).padStart(6)} ms ${r.serverMs.toFixed(2).padStart(6)} ms ${r.cpuMs.toFixed(2).padStart(6)} ms  ${verdict}`,
      );
    }
    log(`load ${loadAverage()} (1, 5, 15 min)`);
    await portalSearches(s, stack.env);
    log(`load ${loadAverage()} (1, 5, 15 min)`);
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
