/**
 * The redirector assembled as index.ts assembles it, over the running stack's database: each
 * outcome, the click rows a batch writes, the plan limits, and cache invalidation.
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

interface Scene {
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

async function withScene(
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
    await db`delete from public.aliases a using public.domains d
      where a.domain_id = d.id and d.domain = ${domain}`;
    await db`delete from public.domains where domain = ${domain}`;
    await db`delete from auth.users where id = ${userId}`;
    await closeSql();
  }
}

function visit(scene: Scene, path: string, init: { method?: string; headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers);
  headers.set('host', scene.domain);
  if (!headers.has('user-agent')) headers.set('user-agent', IPHONE);
  return new Request(`http://${scene.domain}/r${path}`, { method: init.method ?? 'GET', headers });
}

async function clicksOf(db: Sql, aliasId: string) {
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
async function withinASecond(ask: () => Promise<Response>, passes: (answer: Response) => boolean) {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const answer = await ask();
    if (passes(answer) || Date.now() > deadline) return answer;
    await answer.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test('a redirect merges the query, and its click is written with the visitor’s facts', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('Launch', 'https://example.com/launch?utm_source=news#top');
    const answer = await redirector.handler(
      visit(scene, '/launch?utm_source=spam&ref=tw&qr=1', {
        headers: { 'x-forwarded-for': '8.8.8.8', referer: 'https://t.co/abc?x=1' },
      }),
    );
    assert.equal(answer.status, 302);
    assert.equal(
      answer.headers.get('location'),
      'https://example.com/launch?utm_source=news&ref=tw#top',
    );
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await clicksOf(scene.db, aliasId), [], 'nothing written before the flush');

    assert.equal(await redirector.buffer.flush(), true);
    assert.deepEqual(await clicksOf(scene.db, aliasId), [
      {
        country: 'US',
        device: 'mobile',
        browser: 'Mobile Safari',
        os: 'iOS',
        referrer_host: 't.co',
        is_bot: false,
        is_qr: true,
        has_hash: true,
      },
    ]);
  }),
);

Deno.test('301 where the domain asks for it; robots and HEAD requests', () =>
  withScene({ redirectStatus: 301 }, async (scene, redirector) => {
    const aliasId = await scene.link('perm', 'https://example.com/p');
    const answer = await redirector.handler(visit(scene, '/perm'));
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.get('cache-control'), 'private, max-age=90');
    const bot = await redirector.handler(
      visit(scene, '/perm', {
        headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
      }),
    );
    assert.equal(bot.status, 301);
    const head = await redirector.handler(visit(scene, '/perm', { method: 'HEAD' }));
    assert.equal(head.status, 301);
    await redirector.buffer.flush();
    const clicks = await clicksOf(scene.db, aliasId);
    assert.deepEqual(
      clicks.map((click) => [click.device, click.is_bot]),
      [
        ['mobile', false],
        ['other', true],
      ],
      'the robot is recorded as one; HEAD is not recorded',
    );
  }),
);

Deno.test('each dead end answers its page, and nothing is written for them', () =>
  withScene({}, async (scene, redirector) => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const ids = [
      await scene.link('gone', 'https://example.com/1', { status: 'deleted' }),
      await scene.link('old', 'https://example.com/2', { status: 'archived' }),
      await scene.link('bad', 'https://example.com/3', { status: 'terminated' }),
      await scene.link('late', 'https://example.com/4', { expiresAt: past }),
      await scene.link('nasty', 'https://banned-dest.example/5'),
    ];
    await scene.db`insert into public.banned_domains (domain) values ('banned-dest.example')`;
    try {
      const expected: [string, number][] = [
        ['/nothing', 404],
        ['/gone', 404],
        ['/old', 410],
        ['/bad', 410],
        ['/late', 410],
        ['/nasty', 410],
        ['/favicon.ico', 404],
      ];
      for (const [path, status] of expected) {
        const answer = await redirector.handler(visit(scene, path));
        assert.equal(answer.status, status, path);
        assert.match(answer.headers.get('content-type') ?? '', /text\/html/, path);
        await answer.body?.cancel();
      }
      const post = await redirector.handler(visit(scene, '/old', { method: 'POST' }));
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      await redirector.buffer.flush();
      for (const id of ids) assert.deepEqual(await clicksOf(scene.db, id), []);
      assert.equal(redirector.buffer.stats().written, 0);
    } finally {
      await scene.db`delete from public.banned_domains where domain = 'banned-dest.example'`;
    }
  }),
);

Deno.test('the domain’s 404 redirect takes over not-found, archived and expired links', () =>
  withScene({ notFoundRedirect: 'https://owner.example/missing' }, async (scene, redirector) => {
    await scene.link('old', 'https://example.com/2', { status: 'archived' });
    await scene.link('bad', 'https://example.com/3', { status: 'terminated' });
    for (const path of ['/nothing', '/old', '/bad.path']) {
      const answer = await redirector.handler(visit(scene, path));
      assert.equal(answer.status, 302, path);
      assert.equal(answer.headers.get('location'), 'https://owner.example/missing', path);
    }
    // Staff's termination is always shown.
    assert.equal((await redirector.handler(visit(scene, '/bad'))).status, 410);
  }),
);

Deno.test('the root: its redirect, else the home page; unknown hosts get 404', () =>
  withScene({}, async (scene, redirector) => {
    const home = await redirector.handler(visit(scene, '/'));
    assert.equal(home.status, 200);
    assert.match(await home.text(), /Short links by Shortlane/);
    await scene.db`update public.domains set root_redirect_url = 'https://owner.example/'
      where domain = ${scene.domain}`;
    const redirected = await withinASecond(
      () => redirector.handler(visit(scene, '/')),
      (answer) => answer.status === 302,
    );
    assert.equal(redirected.status, 302);
    assert.equal(redirected.headers.get('location'), 'https://owner.example/');
    const stranger = new Request('http://unknown.example/r/abc', {
      headers: { host: 'unknown.example' },
    });
    assert.equal((await redirector.handler(stranger)).status, 404);
  }),
);

Deno.test('the preview route shows the destination and records nothing', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('peek', 'https://example.com/docs');
    const answer = await redirector.handler(visit(scene, '/preview/deprecated/peek/guide?x=1'));
    assert.equal(answer.status, 200);
    const html = await answer.text();
    assert.ok(html.includes('https://example.com/docs/guide?x=1'));
    assert.ok(html.includes('href="/peek/guide?x=1"'));
    await redirector.buffer.flush();
    assert.deepEqual(await clicksOf(scene.db, aliasId), []);
  }),
);

Deno.test('a blocked address is refused before anything else', () =>
  withScene({}, async (scene, redirector) => {
    await scene.link('x', 'https://example.com/x');
    await scene.db`insert into public.ip_blocks (range) values ('192.0.2.99/32')`;
    try {
      const answer = await withinASecond(
        () =>
          redirector.handler(visit(scene, '/x', { headers: { 'x-forwarded-for': '192.0.2.99' } })),
        (answer) => answer.status === 403,
      );
      assert.equal(answer.status, 403);
      const other = await redirector.handler(
        visit(scene, '/x', { headers: { 'x-forwarded-for': '192.0.2.100' } }),
      );
      assert.equal(other.status, 302);
    } finally {
      await scene.db`delete from public.ip_blocks where range = '192.0.2.99/32'`;
    }
  }),
);

Deno.test('a changed destination is seen at once (NOTIFY), without waiting for the TTL', () =>
  withScene({}, async (scene, redirector) => {
    await scene.link('moving', 'https://example.com/before');
    for (let i = 0; i < 2; i++) {
      const answer = await redirector.handler(visit(scene, '/moving'));
      assert.equal(answer.headers.get('location'), 'https://example.com/before');
    }
    assert.equal(redirector.stats().cache.hits, 1, 'the second answer came from the cache');
    await scene.db`update public.long_urls set url = 'https://example.com/after'
      where url = 'https://example.com/before' and account_id = ${scene.accountId}`;
    const started = Date.now();
    const changed = await withinASecond(
      () => redirector.handler(visit(scene, '/moving')),
      (answer) => answer.headers.get('location') === 'https://example.com/after',
    );
    assert.equal(changed.headers.get('location'), 'https://example.com/after');
    assert.ok(Date.now() - started < 1_000);
  }),
);

Deno.test('past max_trackable_clicks redirects go on untracked; past max_redirects they stop', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('limited', 'https://example.com/l');
    await scene.db`insert into public.account_usage (account_id, name, "limit") values
      (${scene.accountId}, 'max_trackable_clicks', 2), (${scene.accountId}, 'max_redirects', 3)`;
    for (let i = 0; i < 3; i++) {
      assert.equal((await redirector.handler(visit(scene, '/limited'))).status, 302);
    }
    await redirector.buffer.flush();
    assert.equal((await clicksOf(scene.db, aliasId)).length, 2, 'two clicks tracked of three');
    const usage = await scene.db<{ name: string; used: string }[]>`
      select name, used::text from public.account_usage
      where account_id = ${scene.accountId} order by name`;
    assert.deepEqual(
      usage.map((row) => [row.name, row.used]),
      [
        ['max_redirects', '3'],
        ['max_trackable_clicks', '2'],
      ],
    );
    // The batch told the redirector the account is out of redirects.
    const refused = await redirector.handler(visit(scene, '/limited'));
    assert.equal(refused.status, 402);
    assert.match(await refused.text(), /used up this month/);

    // Overage turned on (announced on account_limits): the link redirects again.
    await scene.db`update public.account_usage set overage_enabled = true
      where account_id = ${scene.accountId} and name = 'max_redirects'`;
    const again = await withinASecond(
      () => redirector.handler(visit(scene, '/limited')),
      (answer) => answer.status === 302,
    );
    assert.equal(again.status, 302);
  }),
);

Deno.test('many distinct misses are looked up together', () =>
  withScene({}, async (scene, redirector) => {
    for (let i = 0; i < 40; i++) await scene.link(`m${i}`, `https://example.com/${i}`);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => redirector.handler(visit(scene, `/M${i}`))),
    );
    answers.forEach((answer, i) => {
      assert.equal(answer.status, 302);
      assert.equal(answer.headers.get('location'), `https://example.com/${i}`);
    });
    assert.equal(redirector.stats().cache.misses, 40);
  }),
);
