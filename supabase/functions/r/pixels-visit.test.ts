/**
 * Pixels over the running stack: a link's pixels come with it from the database and its cache,
 * a browser gets the pixel page, those who opted out the plain redirect, every GET counts one
 * click either way, and attaching or removing a pixel reaches a warm cache.
 */
import assert from 'node:assert/strict';
import { clicksOf, type Scene, visit, withinASecond, withScene } from './test-scene.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

async function addPixel(scene: Scene, provider: string, pixelId: string): Promise<string> {
  const [row] = await scene.db<{ id: string }[]>`
    insert into public.pixels (account_id, provider, pixel_id, name)
    values (${scene.accountId}, ${provider}, ${pixelId}, ${provider}) returning id`;
  assert.ok(row);
  return row.id;
}

async function attach(scene: Scene, aliasId: string, pixelId: string) {
  await scene.db`insert into public.alias_pixels (alias_id, pixel_id) values (${aliasId}, ${pixelId})`;
}

Deno.test('a browser gets the pixel page; bots, DNT, GPC and the opt-out get the redirect', () =>
  withScene({ redirectStatus: 301 }, async (scene, redirector) => {
    const aliasId = await scene.link('promo', 'https://example.com/promo');
    await attach(scene, aliasId, await addPixel(scene, 'meta', '123456789012345'));
    await attach(scene, aliasId, await addPixel(scene, 'google_ads', 'AW-987654321'));

    const go = (headers: Record<string, string>, path = '/promo', method = 'GET') =>
      redirector.handler(
        visit(scene, path, { headers: { 'user-agent': CHROME, ...headers }, method }),
      );

    const page = await go({}, '/promo/x?a=1');
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /fbq\('init',"123456789012345"\)/);
    assert.match(html, /gtag\('config',"AW-987654321"\)/);
    assert.match(html, /location\.replace\("https:\/\/example\.com\/promo\/x\?a=1"\)/);
    const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    assert.ok(nonce);
    assert.ok(html.includes(`nonce="${nonce}"`));

    const plain: Record<string, string>[] = [
      { dnt: '1' },
      { 'sec-gpc': '1' },
      { cookie: 'tinyStrictPrivate=true' },
      { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
    ];
    for (const headers of plain) {
      const answer = await go(headers);
      assert.equal(answer.status, 301, JSON.stringify(headers));
      assert.equal(answer.headers.get('location'), 'https://example.com/promo');
      await answer.body?.cancel();
    }
    const head = await go({}, '/promo', 'HEAD');
    assert.equal(head.status, 301, 'HEAD: the redirect, no page, no click');

    // One click per GET, page or redirect; none for HEAD.
    await redirector.buffer.flush();
    const clicks = await clicksOf(scene.db, aliasId);
    assert.equal(clicks.length, 1 + plain.length);
    assert.equal(clicks.filter((click) => click.is_bot).length, 1);
  }),
);

Deno.test('attaching and removing a pixel reaches a link already in the cache', () =>
  withScene({}, async (scene, redirector) => {
    const aliasId = await scene.link('warm', 'https://example.com/warm');
    const go = () =>
      redirector.handler(visit(scene, '/warm', { headers: { 'user-agent': CHROME } }));
    const before = await go();
    assert.equal(before.status, 302, 'no pixels: the plain redirect');

    const pixelId = await addPixel(scene, 'linkedin', '5123456');
    await attach(scene, aliasId, pixelId);
    const withPixel = await withinASecond(go, (answer) => answer.status === 200);
    assert.equal(withPixel.status, 200);
    assert.match(await withPixel.text(), /_linkedin_data_partner_ids\.push\("5123456"\)/);

    await scene.db`update public.pixels set pixel_id = '7654321' where id = ${pixelId}`;
    let changedHtml = '';
    for (const deadline = Date.now() + 1_000; Date.now() < deadline;) {
      changedHtml = await (await go()).text();
      if (changedHtml.includes('7654321')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.match(changedHtml, /push\("7654321"\)/, 'a changed id reaches the cache too');

    await scene.db`delete from public.pixels where id = ${pixelId}`;
    const after = await withinASecond(go, (answer) => answer.status === 302);
    assert.equal(after.status, 302);
    assert.equal(after.headers.get('location'), 'https://example.com/warm');
  }),
);

Deno.test(
  'a short domain’s opt-out page keeps the choice, and the pixels are skipped with it',
  () =>
    withScene({}, async (scene, redirector) => {
      const aliasId = await scene.link('optout', 'https://example.com/optout');
      await attach(scene, aliasId, await addPixel(scene, 'tiktok', 'ABCDEFGHIJ0123456789'));
      const page = await redirector.handler(visit(scene, '/opt-out.html'));
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('set-cookie'), null, 'looking records nothing');
      assert.match(await page.text(), /href="\?opt_out=true">Opt out</);

      const chosen = await redirector.handler(visit(scene, '/opt-out.html?opt_out=true'));
      const cookie = chosen.headers.get('set-cookie') ?? '';
      assert.match(
        cookie,
        /^tinyStrictPrivate=true; expires=Fri, 31 Dec 9999 23:59:59 GMT; path=\//,
      );
      assert.match(await chosen.text(), /Opt back in/);

      const visitWith = (cookieHeader: string) =>
        redirector.handler(
          visit(scene, '/optout', { headers: { 'user-agent': CHROME, cookie: cookieHeader } }),
        );
      const skipped = await visitWith(cookie.split(';')[0]!);
      assert.equal(skipped.status, 302);
      const fired = await visitWith('tinyStrictPrivate=false');
      assert.equal(fired.status, 200);
      await fired.body?.cancel();
    }),
);
