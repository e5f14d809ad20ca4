/**
 * The TLS ask endpoint: the host name check alone, then the answers of the redirector started
 * over the running stack's database, as Caddy asks them (GET ...?domain=<host>).
 */
import assert from 'node:assert/strict';
import { withinASecond, withScene } from './test-scene.ts';
import { askedDomain } from './tls-ask.ts';

const asked = (query: string) => askedDomain(new URL(`http://front/r/.well-known/tls-ask${query}`));

Deno.test('the host name asked about: one DNS name, normalised', () => {
  assert.equal(asked('?domain=Go.Example.COM.'), 'go.example.com');
  assert.equal(asked('?domain=xn--bcher-kva.example'), 'xn--bcher-kva.example');
  for (const query of [
    '',
    '?domain=',
    '?domain=localhost',
    '?domain=a.example&domain=b.example',
    '?domain=-a.example',
    '?domain=a-.example',
    '?domain=a..example',
    '?domain=*.example.com',
    '?domain=example.com:443',
    '?domain=192.0.2.1',
    '?domain=%5B2001%3Adb8%3A%3A1%5D',
    '?domain=b%C3%BCcher.example',
    `?domain=${'a'.repeat(64)}.example`,
    `?domain=${`${'a'.repeat(60)}.`.repeat(5)}example`,
  ]) {
    assert.equal(asked(query), null, query);
  }
});

Deno.test('only a usable domain may get a certificate', () =>
  withScene({}, async (scene, redirector) => {
    const ask = (query: string, host = 'caddy.internal') =>
      redirector.handler(
        new Request(`http://${host}/r/.well-known/tls-ask${query}`, { headers: { host } }),
      );
    const answer = await ask(`?domain=${scene.domain.toUpperCase()}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await answer.json(), { domain: scene.domain, allowed: true });

    const unknown = await ask(`?domain=unknown-${scene.domain}`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { domain: `unknown-${scene.domain}`, allowed: false });

    const invalid = await ask('?domain=not a host');
    assert.equal(invalid.status, 400);
    assert.equal((await invalid.json()).code, 'invalid_domain');
    const missing = await ask('');
    assert.equal(missing.status, 400);
    await missing.body?.cancel();

    // A branded domain of the scene's account while its DNS check is still pending.
    const pending = `p-${scene.domain}`;
    await scene.db`insert into public.domains (domain, kind, account_id, verification_status)
      values (${pending}, 'branded', ${scene.accountId}, 'pending')`;
    try {
      const waiting = await ask(`?domain=${pending}`);
      assert.equal(waiting.status, 404);
      await waiting.body?.cancel();
      await scene.db`update public.domains set verification_status = 'verified',
        verified_at = now() where domain = ${pending}`;
      const verified = await withinASecond(
        () => ask(`?domain=${pending}`),
        (response) => response.status === 200,
      );
      assert.equal(verified.status, 200, 'verified: allowed within a second (cache invalidation)');
      await verified.body?.cancel();
    } finally {
      await scene.db`delete from public.domains where domain = ${pending}`;
    }

    // A vanity subdomain of the (common) scene domain is live at once; blocked or disabled by
    // staff, it is refused like its redirects.
    const vanity = `v.${scene.domain}`;
    await scene.db`insert into public.domains (domain, kind, account_id, base_domain_id,
        verification_status, verified_at)
      select ${vanity}, 'branded', ${scene.accountId}, d.id, 'verified', now()
      from public.domains d where d.domain = ${scene.domain}`;
    try {
      const live = await ask(`?domain=${vanity}`);
      assert.equal(live.status, 200);
      await live.body?.cancel();
      for (const column of ['is_blocked', 'is_disabled'] as const) {
        await scene.db`update public.domains set ${scene.db(column)} = true
          where domain = ${vanity}`;
        const refused = await withinASecond(
          () => ask(`?domain=${vanity}`),
          (response) => response.status === 404,
        );
        assert.equal(refused.status, 404, column);
        await refused.body?.cancel();
        await scene.db`update public.domains set ${scene.db(column)} = false
          where domain = ${vanity}`;
      }
    } finally {
      await scene.db`delete from public.domains where domain = ${vanity}`;
    }

    // Caddy fronts every host with the function, so the question may come on a short domain too.
    const onShortDomain = await ask(`?domain=${scene.domain}`, scene.domain);
    assert.equal(onShortDomain.status, 200);
    await onShortDomain.body?.cancel();

    // Deleted (for good: the name is freed): certificates stop with the redirects.
    await scene.db`update public.domains set is_deleted = true where domain = ${scene.domain}`;
    const deleted = await withinASecond(
      () => ask(`?domain=${scene.domain}`),
      (response) => response.status === 404,
    );
    assert.equal(deleted.status, 404);
    await deleted.body?.cancel();
  }),
);
