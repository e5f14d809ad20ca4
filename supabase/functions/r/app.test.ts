/**
 * The redirector assembled as index.ts assembles it, over the running stack's database: each
 * outcome, the click rows a batch writes, the plan limits, and cache invalidation.
 */
import assert from 'node:assert/strict';
import { clicksOf, visit, withinASecond, withScene } from './test-scene.ts';

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
