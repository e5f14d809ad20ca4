/**
 * Test support for the redirector's stack tests: a scene (a user, a verified domain, links on
 * it) with a redirector started over the running stack's database, and helpers to visit it.
 * Not imported by the function.
 */
import assert from 'node:assert/strict';
import { ipHasher } from '../_shared/clicks/ip-hash.ts';
import { closeSql, sql, type Sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { type Redirector, startRedirector } from './app.ts';

useStackAsRuntimeEnv();

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const hasher = ipHasher('a test salt of sixteen characters');

export interface Scene {
  db: Sql;
  domain: string;
  accountId: string;
  userId: string;
  /** Creates a link on the scene's domain and answers its alias id. */
  link(
    alias: string,
    url: string,
    extra?: { status?: string; expiresAt?: string },
  ): Promise<string>;
}

export async function withScene(
  options: { notFoundRedirect?: string | null; redirectStatus?: 301 | 302 },
  run: (scene: Scene, redirector: Redirector) => Promise<void>,
) {
  const db = sql();
  const suffix = crypto.randomUUID().slice(0, 8);
  const domain = `t${suffix}.redirect.test`;
  const userId = crypto.randomUUID();
  await db`insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
    values (${userId}, 'authenticated', 'authenticated', ${`r-${suffix}@example.test`}, now(), now(), now())`;
  const [profile] = await db<{ account_id: string }[]>`
    select personal_account_id as account_id from public.profiles where id = ${userId}`;
  assert.ok(profile, 'the sign-up trigger made a personal account');
  const accountId = profile.account_id;
  await db`insert into public.domains (domain, kind, verification_status, verified_at,
      not_found_redirect_url, redirect_status)
    values (${domain}, 'common', 'verified', now(), ${options.notFoundRedirect ?? null},
      ${options.redirectStatus ?? 302})`;
  const scene: Scene = {
    db,
    domain,
    accountId,
    userId,
    async link(alias, url, extra = {}) {
      const [row] = await db<{ id: string }[]>`
        with long_url as (
          insert into public.long_urls (account_id, url) values (${accountId}, ${url}) returning id
        )
        insert into public.aliases (long_url_id, account_id, domain_id, alias, status, expires_at,
          created_by)
        select l.id, ${accountId}, d.id, ${alias}, ${extra.status ?? 'active'},
          ${extra.expiresAt ?? null}, ${userId}
        from long_url l, public.domains d where d.domain = ${domain}
        returning id`;
      assert.ok(row, `link ${alias} created`);
      return row.id;
    },
  };
  // Minutes-long intervals: the test decides when the buffer writes.
  const redirector = await startRedirector({ sql: db, hasher, flushIntervalMs: 600_000 });
  try {
    await run(scene, redirector);
  } finally {
    await redirector.close();
    // A domain the test deleted keeps its name in deleted_domain (the name itself is freed).
    await db`delete from public.aliases a using public.domains d
      where a.domain_id = d.id and (d.domain = ${domain} or d.deleted_domain = ${domain})`;
    await db`delete from public.domains where domain = ${domain} or deleted_domain = ${domain}`;
    await db`delete from auth.users where id = ${userId}`;
    await closeSql();
  }
}

export function visit(
  scene: Scene,
  path: string,
  init: { method?: string; headers?: HeadersInit } = {},
) {
  const headers = new Headers(init.headers);
  headers.set('host', scene.domain);
  if (!headers.has('user-agent')) headers.set('user-agent', IPHONE);
  return new Request(`http://${scene.domain}/r${path}`, { method: init.method ?? 'GET', headers });
}

export async function clicksOf(db: Sql, aliasId: string) {
  const rows = await db<
    {
      country: string | null;
      device: string;
      browser: string | null;
      os: string | null;
      referrer_host: string | null;
      is_bot: boolean;
      is_qr: boolean;
      has_hash: boolean;
    }[]
  >`select country, device, browser, os, referrer_host, is_bot, is_qr,
      ip_hash is not null as has_hash
    from public.clicks where alias_id = ${aliasId} order by time, is_bot`;
  return [...rows];
}

/** Asks until the answer passes or a second has gone by (NOTIFY arrives after the commit). */
export async function withinASecond(
  ask: () => Response | Promise<Response>,
  passes: (answer: Response) => boolean,
) {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const answer = await ask();
    if (passes(answer) || Date.now() > deadline) return answer;
    await answer.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
