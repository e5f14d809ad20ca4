/**
 * Public API benchmark: the `api` edge function through the gateway, as customers call it,
 * loaded with autocannon (50 connections, BENCH_SECONDS per phase, 10 by default):
 *   1. link creation: POST /v1/links with a fresh URL per request (random alias each time);
 *   2. listing: GET /v1/links?limit=50 over an account holding at least 50 links.
 * Prints req/s, p50 and p99 latency, refusals, and the load average around each phase (other
 * work on the machine skews the figures: read them beside it). Not a timed test.
 *
 *   npm run bench:api
 *
 * Starts a stack of its own without the demo seed (ports 63321/63322/63324, state dir
 * .local/bench-api, wiped first; override with the STACK_* variables), with the per-token rate
 * limit out of reach (API_RATE_LIMIT), adds one account on an unlimited plan with use_api, a
 * domain and a token, and stops everything at the end.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';

process.env.STACK_GATEWAY_PORT ??= '63321';
process.env.STACK_DB_PORT ??= '63322';
process.env.STACK_MAIL_PORT ??= '63324';
process.env.STACK_WATCH_FUNCTIONS = 'false';
// The stack hands its own environment to the functions: no 429s during the measurement.
process.env.API_RATE_LIMIT = '100000000/1h';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const DOMAIN = 'bench-api.localhost';

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function seed(dbUrl: string): Promise<string> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const token = `slt_${randomBytes(24).toString('hex')}`;
    // Separate statements: a trigger makes the profile, which one statement would not yet see.
    const user = await db.query<{ id: string }>(
      `insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at, created_at,
         updated_at)
       values (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'authenticated',
         'authenticated', 'bench-api@example.test', now(), now(), now())
       returning id`,
    );
    const userId = user.rows[0]!.id;
    await db.query(
      `with account as (
         select p.personal_account_id as id from public.profiles p where p.id = $1
       ), plan as (
         insert into public.plans (name, "group", hidden) values ('bench-api', 'bench', true)
         returning id
       ), price as (
         insert into public.plan_prices (plan_id, interval, amount, features, options)
         select id, 'yearly', 1000, '{use_api,use_custom_alias,use_tags}', '{}' from plan
         returning id, plan_id
       ), sub as (
         insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
           billing_type, interval, amount, billing_status)
         select account.id, price.plan_id, price.id, 'default', 'bench-api', 'bench', 1,
           'yearly', 1000, 'active'
         from account, price
       )
       insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
         abilities)
       select account.id, $1, 'bench', $2, left($3, 10), '{links:read,links:write}'
       from account`,
      [userId, createHash('sha256').update(token).digest(), token],
    );
    await db.query(
      `insert into public.domains (domain, kind, verification_status, verified_at)
       values ($1, 'common', 'verified', now())`,
      [DOMAIN],
    );
    return token;
  } finally {
    await db.end();
  }
}

interface Phase {
  name: string;
  result: autocannon.Result;
  loadBefore: string;
  loadAfter: string;
}

async function measure(name: string, options: autocannon.Options): Promise<Phase> {
  const loadBefore = load();
  log(`${name}: ${CONNECTIONS} connections, ${SECONDS} s…`);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  return { name, result, loadBefore, loadAfter: load() };
}

function report(phase: Phase) {
  const { result } = phase;
  console.log(
    [
      `${phase.name.padEnd(26)}`,
      `${result.requests.average.toFixed(0).padStart(6)} req/s`,
      `p50 ${String(result.latency.p50).padStart(5)} ms`,
      `p99 ${String(result.latency.p99).padStart(5)} ms`,
      `2xx ${result['2xx']}`,
      `non-2xx ${result.non2xx}`,
      `errors ${result.errors}`,
      `load ${phase.loadBefore} → ${phase.loadAfter}`,
    ].join('  '),
  );
}

async function main() {
  const stateDir = path.join(REPO_ROOT, '.local', 'bench-api');
  fs.rmSync(stateDir, { recursive: true, force: true });
  const config = loadConfig({ stateDir, seed: false });
  log('starting a stack…');
  const stack = await startStack(config, () => {});
  try {
    const token = await seed(stack.env.DB_URL);
    const url = `${stack.env.SUPABASE_URL}/functions/v1/api/v1/links`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // One call first: a refusal (token, plan, domain) would make the figures meaningless.
    const probe = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'https://example.com/probe', domain: DOMAIN }),
    });
    if (probe.status !== 201) throw new Error(`probe: ${probe.status} ${await probe.text()}`);
    let counter = 0;
    const create = await measure('create (POST /v1/links)', {
      url,
      method: 'POST',
      headers,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ url: `https://example.com/${++counter}`, domain: DOMAIN }),
          }),
        },
      ],
    });
    const list = await measure('list 50 (GET ?limit=50)', {
      url: `${url}?limit=50`,
      headers: { authorization: headers.authorization },
    });
    console.log(`\nPublic API through the gateway, ${os.cpus().length} CPUs:`);
    report(create);
    report(list);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
