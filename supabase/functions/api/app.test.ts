import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { createLinksHandler } from '../links/handler.ts';
import { banDomain, stackDependencies } from '../links/test-scene.ts';
import { createApiHandler } from './app.ts';
import { gateInDatabase } from './gate.ts';
import {
  ALL_ABILITIES,
  apiDependencies,
  call,
  cleanUp,
  createDomain,
  createTeam,
  createUser,
  DOC_BASE,
  givePaidPlan,
  limitApiCredits,
  mintToken,
  suffix,
} from './test-scene.ts';

const api = createApiHandler(apiDependencies());
const FEATURES = ['use_api', 'use_custom_alias', 'use_tags', 'manage_expiration', 'use_analytics'];

function test(name: string, fn: () => Promise<void>) {
  Deno.test(name, async () => {
    try {
      await fn();
    } finally {
      // Jobs keep their domain (on delete restrict); the API's are named so.
      await sql()`delete from public.bulk_jobs where file_name = 'API request'`;
      await cleanUp();
      await sql()`delete from public.plans where name like 'api-plan-%'`;
      await closeSql();
    }
  });
}

async function personalScene(abilities: readonly string[] = ALL_ABILITIES) {
  const user = await createUser({ features: FEATURES });
  const domain = await createDomain();
  const { token, id } = await mintToken({ accountId: user.accountId, userId: user.id, abilities });
  return { user, domain, token, tokenId: id };
}

const createBody = (domain: string, extra: Record<string, unknown> = {}) => ({
  url: `https://example.com/${suffix()}`,
  domain,
  ...extra,
});

// The create answer is built from create_link's own JSON, not read back: the same fields as a
// read, for a drawn alias with tags and an expiry too.
test('answers a create with the link as a read gives it', async () => {
  const { domain, token } = await personalScene();
  const expiring = await call(api, 'POST', '/v1/links', {
    token,
    body: createBody(domain.domain, {
      tags: ['b-tag', 'a-tag'],
      expires_at: new Date(Date.now() + 86_400_123).toISOString(),
    }),
  });
  assert.equal(expiring.status, 201, JSON.stringify(expiring.body));
  assert.ok(expiring.body.expires_at);
  const expiringRead = await call(api, 'GET', `/v1/links/${expiring.body.id}`, { token });
  assert.deepEqual(expiringRead.body, expiring.body);
});

test('creates, reads, lists with a cursor, updates, archives and deletes a link', async () => {
  const { domain, token } = await personalScene();
  const created = await call(api, 'POST', '/v1/links', {
    token,
    body: createBody(domain.domain, { alias: `a${suffix()}`, tags: ['Launch'] }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.domain, domain.domain);
  assert.deepEqual(created.body.tags, ['launch']);
  assert.equal(
    created.body.tiny_url,
    `http://${domain.domain}:${new URL(Deno.env.get('SUPABASE_URL')!).port}/${created.body.alias}`,
  );
  assert.equal(created.headers.get('x-ratelimit-limit'), '1000000');

  const read = await call(api, 'GET', `/v1/links/${created.body.id}`, { token });
  assert.deepEqual(read.body, created.body);

  for (let i = 0; i < 2; i++) {
    await call(api, 'POST', '/v1/links', { token, body: createBody(domain.domain) });
  }
  const first = await call(api, 'GET', '/v1/links?limit=2', { token });
  assert.equal(first.body.data.length, 2);
  assert.ok(first.body.next_cursor);
  const second = await call(
    api,
    'GET',
    `/v1/links?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    { token },
  );
  assert.equal(second.body.data.length, 1);
  assert.equal(second.body.next_cursor, null);
  assert.equal(second.body.data[0].id, created.body.id);
  const tagged = await call(api, 'GET', '/v1/links?tag=launch', { token });
  assert.deepEqual(
    tagged.body.data.map((link: { id: string }) => link.id),
    [created.body.id],
  );

  const alias = `b${suffix()}`;
  const updated = await call(api, 'PATCH', `/v1/links/${created.body.id}`, {
    token,
    body: { alias, tags: ['other'] },
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body.alias, alias);
  assert.deepEqual(updated.body.tags, ['other']);
  // update_link's own rule, as in the portal: a free account cannot move a destination.
  const moved = await call(api, 'PATCH', `/v1/links/${created.body.id}`, {
    token,
    body: { url: 'https://example.org/moved' },
  });
  assert.equal(moved.status, 402);
  assert.equal(moved.body.error.code, 'paid_only');
  // A hostile destination is refused before the database, as on create.
  const hostile = await call(api, 'PATCH', `/v1/links/${created.body.id}`, {
    token,
    body: { url: 'http://169.254.169.254/' },
  });
  assert.equal(hostile.status, 422);
  assert.equal(hostile.body.error.code, 'url_not_allowed');

  const archived = await call(api, 'POST', `/v1/links/${created.body.id}/archive`, {
    token,
    body: {},
  });
  assert.equal(archived.body.status, 'archived');
  const archivedList = await call(api, 'GET', '/v1/links?status=archived', { token });
  assert.equal(archivedList.body.data.length, 1);

  const deleted = await call(api, 'DELETE', `/v1/links/${created.body.id}`, { token });
  assert.equal(deleted.status, 204);
  const gone = await call(api, 'GET', `/v1/links/${created.body.id}`, { token });
  assert.equal(gone.status, 404);
  assert.deepEqual(gone.body, {
    error: {
      code: 'alias_not_found',
      message: 'Alias not found',
      doc_url: `${DOC_BASE}/app/dev#error-alias_not_found`,
    },
  });
});

test('each route needs its ability: allowed with it, 403 without', async () => {
  const user = await createUser({ features: FEATURES });
  await givePaidPlan(user.accountId, FEATURES);
  const domain = await createDomain();
  const owner = await mintToken({ accountId: user.accountId, userId: user.id });
  const link = await call(api, 'POST', '/v1/links', {
    token: owner.token,
    body: createBody(domain.domain),
  });
  const id = link.body.id as string;
  const routes: [string, string, string, unknown?][] = [
    ['links:read', 'GET', '/v1/links'],
    ['links:read', 'GET', `/v1/links/${id}`],
    ['links:write', 'POST', '/v1/links', createBody(domain.domain)],
    ['links:write', 'PATCH', `/v1/links/${id}`, { tags: ['x1'] }],
    ['analytics:read', 'GET', `/v1/links/${id}/analytics?period=last_7_day`],
    ['analytics:read', 'GET', '/v1/analytics'],
    ['domains:read', 'GET', '/v1/domains'],
  ];
  for (const [ability, method, path, body] of routes) {
    const only = await mintToken({
      accountId: user.accountId,
      userId: user.id,
      abilities: [ability],
    });
    const others = ALL_ABILITIES.filter((candidate) => candidate !== ability);
    const without = await mintToken({
      accountId: user.accountId,
      userId: user.id,
      abilities: others,
    });
    const allowed = await call(api, method, path, { token: only.token, body });
    assert.ok(
      allowed.status < 300,
      `${method} ${path} with ${ability}: ${JSON.stringify(allowed.body)}`,
    );
    const refused = await call(api, method, path, { token: without.token, body });
    assert.equal(refused.status, 403, `${method} ${path} without ${ability}`);
    assert.equal(refused.body.error.code, 'ability_missing');
  }
  const domains = await call(api, 'GET', '/v1/domains', { token: owner.token });
  const listed = domains.body.data.find((row: { domain: string }) => row.domain === domain.domain);
  assert.deepEqual(listed, {
    id: domain.id,
    domain: domain.domain,
    kind: 'common',
    verification_status: 'verified',
    usable: true,
  });
});

test('unknown, malformed, expired and revoked tokens get 401', async () => {
  const { user, token, tokenId } = await personalScene();
  const expired = await mintToken({
    accountId: user.accountId,
    userId: user.id,
    expiresAt: new Date(Date.now() - 1000),
  });
  await sql()`delete from public.api_tokens where id = ${tokenId}`;
  for (const attempt of [token, expired.token, 'slt_' + '0'.repeat(48)]) {
    const answer = await call(api, 'GET', '/v1/links', { token: attempt });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error.code, 'unauthenticated');
    assert.equal(answer.headers.get('x-ratelimit-limit'), null);
  }
  const bare = await call(api, 'GET', '/v1/links');
  assert.equal(bare.status, 401);
  const basic = await call(api, 'GET', '/v1/links', { headers: { authorization: 'Basic eDp5' } });
  assert.equal(basic.status, 401);
});

test('a team token cannot reach another team, even when its creator can', async () => {
  const owner = await createUser({ features: FEATURES });
  const teamA = await createTeam({ owner, inOrganization: true, features: FEATURES });
  const teamB = await createTeam({ owner, inOrganization: false, features: FEATURES });
  const domain = await createDomain();
  const tokenA = await mintToken({ accountId: teamA.accountId, userId: owner.id });
  const tokenB = await mintToken({ accountId: teamB.accountId, userId: owner.id });
  const inB = await call(api, 'POST', '/v1/links', {
    token: tokenB.token,
    body: createBody(domain.domain),
  });
  assert.equal(inB.status, 201, JSON.stringify(inB.body));
  const inA = await call(api, 'POST', '/v1/links', {
    token: tokenA.token,
    body: createBody(domain.domain),
  });
  assert.equal(inA.status, 201, JSON.stringify(inA.body));
  const [placed] = await sql()<{ account_id: string; organization_id: string | null }[]>`
    select account_id, organization_id from public.aliases where id = ${inA.body.id}`;
  assert.equal(placed!.account_id, teamA.accountId);
  assert.ok(placed!.organization_id, 'a team of an organization keeps its organization');

  for (const [method, path, body] of [
    ['GET', `/v1/links/${inB.body.id}`],
    ['PATCH', `/v1/links/${inB.body.id}`, { tags: ['x1'] }],
    ['POST', `/v1/links/${inB.body.id}/archive`, {}],
    ['DELETE', `/v1/links/${inB.body.id}`],
    ['GET', `/v1/links/${inB.body.id}/analytics`],
  ] as const) {
    const answer = await call(api, method, path, { token: tokenA.token, body });
    assert.equal(answer.status, 404, `${method} ${path}`);
  }
  const listed = await call(api, 'GET', '/v1/links', { token: tokenA.token });
  assert.deepEqual(
    listed.body.data.map((link: { id: string }) => link.id),
    [inA.body.id],
  );
});

test('a token stops when its creator loses the api permission', async () => {
  const owner = await createUser({ features: FEATURES });
  const admin = await createUser({ features: FEATURES });
  const team = await createTeam({
    owner,
    inOrganization: false,
    features: FEATURES,
    members: [{ user: admin, role: 'admin' }],
  });
  const { token } = await mintToken({ accountId: team.accountId, userId: admin.id });
  assert.equal((await call(api, 'GET', '/v1/links', { token })).status, 200);
  await sql()`update public.team_members set role = 'member' where user_id = ${admin.id}`;
  const refused = await call(api, 'GET', '/v1/links', { token });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'permission_denied');
});

test('every call spends an API credit; out of credits is a 402 with the spec message', async () => {
  const { user, token } = await personalScene();
  await limitApiCredits(user.accountId, 2);
  assert.equal((await call(api, 'GET', '/v1/links', { token })).status, 200);
  assert.equal((await call(api, 'GET', '/v1/domains', { token })).status, 200);
  const out = await call(api, 'GET', '/v1/links', { token });
  assert.equal(out.status, 402);
  assert.deepEqual(out.body.error, {
    code: 'not_enough_credits',
    message: 'Not enough credits for this operation',
    doc_url: `${DOC_BASE}/app/dev#error-not_enough_credits`,
  });
  const [usage] = await sql()<{ used: string }[]>`
    select used::text from public.account_usage
    where account_id = ${user.accountId} and name = 'max_api_credits'`;
  assert.equal(usage!.used, '2');
});

test('the rate limit per token answers 429 with Retry-After and the X-RateLimit headers', async () => {
  const limited = createApiHandler(
    apiDependencies({ gate: gateInDatabase({ limit: 2, windowSeconds: 30 }) }),
  );
  const { user, token } = await personalScene();
  const other = await mintToken({ accountId: user.accountId, userId: user.id });
  const first = await call(limited, 'GET', '/v1/links', { token });
  assert.equal(first.headers.get('x-ratelimit-limit'), '2');
  assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
  await call(limited, 'GET', '/v1/links', { token });
  const third = await call(limited, 'GET', '/v1/links', { token });
  assert.equal(third.status, 429);
  assert.equal(third.body.error.code, 'rate_limited');
  assert.equal(third.headers.get('x-ratelimit-remaining'), '0');
  const retryAfter = Number(third.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 30, `Retry-After ${retryAfter}`);
  assert.equal(third.headers.get('x-ratelimit-reset'), String(retryAfter));
  // Another token of the same account has its own budget.
  assert.equal((await call(limited, 'GET', '/v1/links', { token: other.token })).status, 200);
});

test('an Idempotency-Key replays the first create; reused for another body it is refused', async () => {
  const { user, domain, token, tokenId } = await personalScene();
  const body = createBody(domain.domain);
  const key = `key-${suffix()}`;
  const first = await call(api, 'POST', '/v1/links', {
    token,
    body,
    headers: { 'idempotency-key': key },
  });
  assert.equal(first.status, 201);
  const again = await call(api, 'POST', '/v1/links', {
    token,
    body,
    headers: { 'idempotency-key': key },
  });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(again.body, first.body);
  const [count] = await sql()<{ n: number }[]>`
    select count(*)::int as n from public.aliases where account_id = ${user.accountId}`;
  assert.equal(count!.n, 1);
  const other = await call(api, 'POST', '/v1/links', {
    token,
    body: createBody(domain.domain),
    headers: { 'idempotency-key': key },
  });
  assert.equal(other.status, 422);
  assert.equal(other.body.error.code, 'idempotency_key_reused');
  // A reservation still running answers 409; one whose request died is given up after a minute.
  const [running, stuck] = [`key-${suffix()}`, `key-${suffix()}`];
  const pending = createBody(domain.domain);
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`POST /v1/links\n${JSON.stringify(pending)}`),
  );
  const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  await sql()`insert into app.api_idempotency_keys (token_id, key, request_hash, created_at)
              values (${tokenId}, ${running}, ${hash}, now()),
                     (${tokenId}, ${stuck}, ${hash}, now() - interval '2 minutes')`;
  const busy = await call(api, 'POST', '/v1/links', {
    token,
    body: pending,
    headers: { 'idempotency-key': running },
  });
  assert.equal(busy.status, 409);
  assert.equal(busy.body.error.code, 'idempotency_key_in_flight');
  const freed = await call(api, 'POST', '/v1/links', {
    token,
    body: pending,
    headers: { 'idempotency-key': stuck },
  });
  assert.equal(freed.status, 201);
  // A refused first request frees its key.
  const failedKey = `key-${suffix()}`;
  const refused = await call(api, 'POST', '/v1/links', {
    token,
    body: { url: 'javascript:alert(1)', domain: domain.domain },
    headers: { 'idempotency-key': failedKey },
  });
  assert.equal(refused.status, 422);
  const retried = await call(api, 'POST', '/v1/links', {
    token,
    body: createBody(domain.domain),
    headers: { 'idempotency-key': failedKey },
  });
  assert.equal(retried.status, 201);
});

test('hostile inputs are refused exactly as the portal’s create refuses them', async () => {
  const links = createLinksHandler(stackDependencies());
  const { user, domain, token } = await personalScene();
  const banned = `banned-${suffix()}.test`;
  await banDomain(banned);
  const bodies: Record<string, unknown>[] = [
    { url: 'javascript:alert(1)', domain: domain.domain },
    { url: 'http://169.254.169.254/latest/meta-data', domain: domain.domain },
    { url: 'http://127.0.0.1:5432/', domain: domain.domain },
    { url: 'http://0x7f.1/admin', domain: domain.domain },
    { url: 'http://[::1]/', domain: domain.domain },
    { url: 'http://user:secret@example.com/', domain: domain.domain },
    { url: 'https://example.com/a\r\nSet-Cookie: x=1', domain: domain.domain },
    { url: `https://example.com/${'a'.repeat(9000)}`, domain: domain.domain },
    { url: `http://${domain.domain}/loop`, domain: domain.domain },
    { url: `https://www.${banned}/`, domain: domain.domain },
    { url: 'https://example.com/', domain: domain.domain, alias: '../admin' },
    { url: 'https://example.com/', domain: domain.domain, tags: ['x'] },
    { url: 'https://example.com/', domain: domain.domain, expires_at: '2000-01-01T00:00:00Z' },
    { url: 42, domain: domain.domain },
    { url: 'https://example.com/', domain: 'nope.invalid' },
    {},
  ];
  for (const body of bodies) {
    const portal = await links(
      new Request('http://functions.test/links/url/create', {
        method: 'POST',
        headers: { authorization: user.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const portalBody = await portal.json();
    const answer = await call(api, 'POST', '/v1/links', { token, body });
    const label = JSON.stringify(body).slice(0, 80);
    assert.ok(portal.status >= 400, `the portal refuses ${label}`);
    assert.equal(answer.status, portal.status, label);
    assert.equal(answer.body.error.code, portalBody.code, label);
    assert.equal(answer.body.error.message, portalBody.message, label);
    assert.deepEqual(answer.body.error.fields, portalBody.errors, label);
  }
  const [count] = await sql()<{ n: number }[]>`
    select count(*)::int as n from public.aliases where account_id = ${user.accountId}`;
  assert.equal(count!.n, 0);
});

test('validation: unknown fields and query parameters, bad ids, cursors and bodies', async () => {
  const { domain, token } = await personalScene();
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/v1/links', { ...createBody(domain.domain), team: 'x' }, 422, 'validation_failed'],
    ['POST', '/v1/links', '[1]', 422, 'invalid_body'],
    ['GET', '/v1/links?limit=0', undefined, 422, 'validation_failed'],
    ['GET', '/v1/links?limit=101', undefined, 422, 'validation_failed'],
    ['GET', '/v1/links?sort=x', undefined, 422, 'validation_failed'],
    ['GET', '/v1/links?cursor=abc', undefined, 422, 'cursor_invalid'],
    ['GET', '/v1/links/not-a-uuid', undefined, 422, 'validation_failed'],
    ['GET', '/v1/analytics?period=last_year', undefined, 422, 'validation_failed'],
    ['PATCH', `/v1/links/${crypto.randomUUID()}`, { tags: ['ok1'] }, 404, 'alias_not_found'],
    ['GET', '/v1/nothing', undefined, 404, 'not_found'],
  ];
  for (const [method, path, body, status, code] of cases) {
    const answer = await call(api, method, path, { token, body });
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.error.code, code, `${method} ${path}`);
  }
});

test('bulk creates through the bulk import’s SQL, row by row, and needs bulk plus links:write', async () => {
  const user = await createUser({ features: [...FEATURES, 'create_tiny_url', 'use_bulk'] });
  const domain = await createDomain();
  const { token } = await mintToken({ accountId: user.accountId, userId: user.id });
  const alias = `bulk${suffix()}`;
  const body = {
    domain: domain.domain,
    links: [
      { url: 'https://example.com/one', alias, tags: ['Spring'] },
      { url: 'http://169.254.169.254/', alias: null },
      { url: 'https://example.com/two', alias },
      { url: 'https://example.com/three' },
    ],
  };
  const answer = await call(api, 'POST', '/v1/links/bulk', { token, body });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(
    answer.body.created.map((row: { row: number }) => row.row),
    [1, 4],
  );
  assert.equal(answer.body.created[0].alias, alias);
  assert.deepEqual(Object.keys(answer.body.errors).sort(), ['2', '3']);
  assert.deepEqual(answer.body.errors['2'], { url: ['This URL is not allowed.'] });
  assert.deepEqual(answer.body.errors['3'], { alias: ['The new alias is not unique'] });
  const [job] = await sql()<{ status: string; total: number }[]>`
    select status, total from public.bulk_jobs where account_id = ${user.accountId}`;
  assert.deepEqual({ ...job }, { status: 'completed', total: 4 });

  const tooMany = await call(api, 'POST', '/v1/links/bulk', {
    token,
    body: {
      domain: domain.domain,
      links: Array.from({ length: 101 }, () => ({ url: 'https://a.example/' })),
    },
  });
  assert.equal(tooMany.status, 422);
  for (const abilities of [['links:write'], ['bulk']]) {
    const partial = await mintToken({ accountId: user.accountId, userId: user.id, abilities });
    const refused = await call(api, 'POST', '/v1/links/bulk', { token: partial.token, body });
    assert.equal(refused.status, 403, abilities.join());
    assert.equal(refused.body.error.code, 'ability_missing');
  }
  const plain = await createUser({ features: FEATURES });
  const noFeature = await mintToken({ accountId: plain.accountId, userId: plain.id });
  const refused = await call(api, 'POST', '/v1/links/bulk', { token: noFeature.token, body });
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
});

test('a link’s QR code is an SVG of its short URL', async () => {
  const { user, domain, token } = await personalScene();
  const created = await call(api, 'POST', '/v1/links', { token, body: createBody(domain.domain) });
  const response = await api(
    new Request(`http://functions.test/api/v1/links/${created.body.id}/qr`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'image/svg+xml');
  const svg = await response.text();
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const readOnly = await mintToken({
    accountId: user.accountId,
    userId: user.id,
    abilities: ['analytics:read'],
  });
  const refused = await call(api, 'GET', `/v1/links/${created.body.id}/qr`, {
    token: readOnly.token,
  });
  assert.equal(refused.status, 403);
});
