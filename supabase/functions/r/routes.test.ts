/**
 * Redirect routes over the running stack: the first route whose rules hold answers, the link's
 * destination otherwise, the click names the route, and a changed rule reaches a warm cache.
 */
import assert from 'node:assert/strict';
import { clicksOf, type Scene, visit, withinASecond, withScene } from './test-scene.ts';

const GERMAN_IP = '85.214.132.117';
const BRITISH_IP = '81.2.69.142';

async function addRoute(
  scene: Scene,
  aliasId: string,
  position: number,
  url: string,
  rules: { value: string; operation: string; operands: string[]; argument?: string }[],
): Promise<string> {
  const [route] = await scene.db<{ id: string }[]>`
    insert into public.alias_routes (alias_id, account_id, position, url)
    values (${aliasId}, ${scene.accountId}, ${position}, ${url}) returning id`;
  assert.ok(route);
  for (const [index, rule] of rules.entries()) {
    await scene.db`insert into public.alias_route_rules (route_id, account_id, position, value_id,
        condition_id, operation_id, operands, argument)
      values (${route.id}, ${scene.accountId}, ${index}, ${rule.value}, 'if', ${rule.operation},
        ${rule.operands}, ${rule.argument ?? null})`;
  }
  return route.id;
}

/**
 * Each click's visitor and route, in an order that doesn't rest on time: clicks stamped in the
 * same millisecond would otherwise come back in any order.
 */
function routedClicksOf(scene: Scene, aliasId: string) {
  return scene.db<{ country: string | null; device: string; route_id: string | null }[]>`
    select country, device, route_id from public.clicks where alias_id = ${aliasId}
    order by country, device, route_id nulls last`;
}

Deno.test('the first route that holds answers, the destination otherwise, and clicks name it', () =>
  withScene({ redirectStatus: 301 }, async (scene, redirector) => {
    const aliasId = await scene.link('sale', 'https://example.com/sale');
    const germanMobile = await addRoute(scene, aliasId, 0, 'https://m.example.de/sale', [
      { value: 'country', operation: 'equals', operands: ['DE'] },
      { value: 'device', operation: 'equals', operands: ['mobile'] },
    ]);
    const german = await addRoute(scene, aliasId, 1, 'https://example.de/sale', [
      { value: 'country', operation: 'in', operands: ['DE', 'AT'] },
    ]);
    const byQuery = await addRoute(scene, aliasId, 2, 'https://example.com/mail', [
      { value: 'query', operation: 'equals', operands: ['mail'], argument: 'ref' },
    ]);
    const desktop =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

    const go = async (path: string, headers: Record<string, string>) => {
      const answer = await redirector.handler(visit(scene, path, { headers }));
      return [answer.status, answer.headers.get('location')];
    };
    assert.deepEqual(await go('/sale', { 'x-forwarded-for': GERMAN_IP }), [
      302,
      'https://m.example.de/sale',
    ]);
    assert.deepEqual(
      await go('/sale/x', { 'x-forwarded-for': GERMAN_IP, 'user-agent': desktop }),
      [302, 'https://example.de/sale/x'],
      'the second route, with the path',
    );
    assert.deepEqual(await go('/sale?ref=mail', { 'x-forwarded-for': BRITISH_IP }), [
      302,
      'https://example.com/mail?ref=mail',
    ]);
    assert.deepEqual(
      await go('/sale', { 'x-forwarded-for': BRITISH_IP }),
      [302, 'https://example.com/sale'],
      'no route holds: the destination (302 all the same: routes depend on the visitor)',
    );

    await redirector.buffer.flush();
    assert.deepEqual(
      (await routedClicksOf(scene, aliasId)).map((click) => ({ ...click })),
      [
        { country: 'DE', device: 'desktop', route_id: german },
        { country: 'DE', device: 'mobile', route_id: germanMobile },
        { country: 'GB', device: 'mobile', route_id: byQuery },
        { country: 'GB', device: 'mobile', route_id: null },
      ],
    );
  }),
);

Deno.test(
  'a changed rule reaches a warm cache at once; removing the routes restores the default',
  () =>
    withScene({}, async (scene, redirector) => {
      const aliasId = await scene.link('swap', 'https://example.com/swap');
      const routeId = await addRoute(scene, aliasId, 0, 'https://example.de/swap', [
        { value: 'country', operation: 'equals', operands: ['DE'] },
      ]);
      const german = () =>
        redirector.handler(visit(scene, '/swap', { headers: { 'x-forwarded-for': GERMAN_IP } }));
      assert.equal((await german()).headers.get('location'), 'https://example.de/swap');
      const misses = redirector.stats().cache.misses;
      assert.equal((await german()).headers.get('location'), 'https://example.de/swap');
      assert.equal(
        redirector.stats().cache.misses,
        misses,
        'the second visit is served from cache',
      );

      await scene.db`update public.alias_route_rules set operands = '{FR}' where route_id = ${routeId}`;
      const changed = await withinASecond(
        german,
        (answer) => answer.headers.get('location') === 'https://example.com/swap',
      );
      assert.equal(changed.headers.get('location'), 'https://example.com/swap');

      await scene.db`update public.alias_route_rules set operands = '{DE}' where route_id = ${routeId}`;
      await scene.db`update public.alias_routes set url = 'https://example.at/swap' where id = ${routeId}`;
      const moved = await withinASecond(
        german,
        (answer) => answer.headers.get('location') === 'https://example.at/swap',
      );
      assert.equal(moved.headers.get('location'), 'https://example.at/swap');

      await scene.db`delete from public.alias_routes where alias_id = ${aliasId}`;
      const removed = await withinASecond(
        german,
        (answer) => answer.headers.get('location') === 'https://example.com/swap',
      );
      assert.equal(removed.headers.get('location'), 'https://example.com/swap');
    }),
);

Deno.test('a route to an unsafe destination is refused, and a later ban stops it', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('safe', 'https://example.com/safe');
    for (const url of ['http://127.0.0.1/admin', `https://${scene.domain}/loop`]) {
      await assert.rejects(
        addRoute(scene, aliasId, 0, url, []),
        (error: { message?: string }) => /url_(not_allowed|invalid)/.test(error.message ?? ''),
        url,
      );
    }
    const host = `bad-${crypto.randomUUID().slice(0, 8)}.example`;
    await addRoute(scene, aliasId, 0, `https://${host}/`, [
      { value: 'country', operation: 'equals', operands: ['DE'] },
    ]);
    const german = () =>
      redirector.handler(visit(scene, '/safe', { headers: { 'x-forwarded-for': GERMAN_IP } }));
    assert.equal((await german()).headers.get('location'), `https://${host}/`);
    await scene.db`insert into public.banned_domains (domain) values (${host})`;
    try {
      const banned = await withinASecond(
        german,
        (answer) => answer.headers.get('location') === 'https://example.com/safe',
      );
      assert.equal(banned.headers.get('location'), 'https://example.com/safe');
    } finally {
      await scene.db`delete from public.banned_domains where domain = ${host}`;
    }
  }),
);

Deno.test('a rule on the number of clicks counts the stored clicks and this instance’s since', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('popular', 'https://example.com/early');
    await scene.db`select app.record_clicks(${JSON.stringify([
      { time: new Date().toISOString(), alias_id: aliasId, device: 'mobile' },
    ])}::text::json)`;
    await addRoute(scene, aliasId, 0, 'https://example.com/late', [
      { value: 'clicks', operation: 'greater_than', operands: ['2'] },
    ]);
    const go = async () =>
      (await redirector.handler(visit(scene, '/popular'))).headers.get('location');
    // One stored click, then two made here: the third visit sees 3 > 2.
    assert.deepEqual(
      [await go(), await go(), await go()],
      ['https://example.com/early', 'https://example.com/early', 'https://example.com/late'],
    );
  }),
);

Deno.test('a `+` after the alias previews the link and counts nothing', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('look', 'https://example.com/look');
    const answer = await redirector.handler(visit(scene, '/look+'));
    assert.equal(answer.status, 200);
    const html = await answer.text();
    assert.ok(html.includes('https://example.com/look'));
    assert.ok(html.includes('example.com'));
    assert.ok(html.includes('href="/look"'), 'the Visit link goes through the short URL');
    await redirector.buffer.flush();
    assert.deepEqual(await clicksOf(scene.db, aliasId), []);
  }),
);
