import assert from 'node:assert/strict';
import { BOT_CHECK_FAILED_MESSAGE } from '../_shared/bot-check/bot-check.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { createLinksHandler } from './handler.ts';
import {
  cleanUp,
  createDomain,
  createRequest,
  createTeam,
  createUser,
  env,
  guestAuthorization,
  post,
  sandboxToken,
  shortUrlBase,
  stackDependencies,
  suffix,
} from './test-scene.ts';

const links = createLinksHandler(stackDependencies());
const NL = '193.0.6.139';

/** Runs a test and always leaves the database as it found it. */
function test(name: string, fn: () => Promise<void>) {
  Deno.test(name, async () => {
    try {
      await fn();
    } finally {
      await cleanUp();
      await closeSql();
    }
  });
}

test('answers 404 off the routes, 405 to other methods and 200 to a preflight', async () => {
  const user = await createUser();
  const unknown = await post(links, 'url/delete', {}, { authorization: user.authorization });
  assert.deepEqual(unknown, { status: 404, body: { code: 'not_found', message: 'Not Found' } });
  const get = await links(
    createRequest('url/create', '', { authorization: user.authorization, method: 'PUT' }),
  );
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  const preflight = await links(
    new Request('http://f.test/links/url/create', { method: 'OPTIONS' }),
  );
  assert.equal(preflight.status, 200);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
});

test('wants a person: no token is 401, the service role 403', async () => {
  const domain = await createDomain();
  const body = { url: 'https://example.com', domain: domain.domain };
  assert.equal((await post(links, 'url/create', body)).status, 401);
  const service = await post(links, 'url/create', body, {
    authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
  });
  assert.deepEqual(service, {
    status: 403,
    body: {
      code: 'permission_denied',
      message: 'Permission denied',
      errors: { form: ['Permission denied'] },
    },
  });
});

test('a guest with a fresh token gets a base62 random alias in the spec shape', async () => {
  const domain = await createDomain();
  const answer = await post(
    links,
    'url/create',
    {
      url: 'https://Example.com/landing?x=1',
      domain: domain.domain,
      anti_robot_token: await sandboxToken(),
    },
    { authorization: guestAuthorization(), forwardedFor: NL },
  );
  assert.equal(answer.status, 200);
  const alias: string = answer.body[0].aliases[0].alias;
  assert.match(alias, /^[0-9A-Za-z]{7}$/);
  assert.deepEqual(answer.body, [
    {
      url: 'https://example.com/landing?x=1',
      aliases: [
        {
          domain: domain.domain,
          alias,
          tiny_url: `http://${domain.domain}:${shortUrlBase.port}/${alias}`,
          is_main: true,
          tags: [],
          affiliates: [],
        },
      ],
    },
  ]);
  const [row] = await sql()<{ account_id: string | null; created_by: string | null }[]>`
    select account_id, created_by from public.aliases where domain_id = ${domain.id}`;
  assert.deepEqual(row, { account_id: null, created_by: null });
});

test('a hostile URL is refused before the bot check and the database', async () => {
  const answer = await post(
    links,
    'url/create',
    { url: 'http://[::ffff:169.254.169.254]/latest/meta-data', domain: 'nowhere.test' },
    { authorization: guestAuthorization(), forwardedFor: NL },
  );
  assert.deepEqual(answer, {
    status: 422,
    body: {
      code: 'url_not_allowed',
      message: 'This URL is not allowed.',
      errors: { url: ['This URL is not allowed.'] },
    },
  });
});

test('guests may not name a workspace, and are told so before the bot check', async () => {
  const body = { url: 'https://example.com', domain: 'd.test' };
  for (const [path, extra] of [
    ['url/create', { team: 'some-team' }],
    ['organization/acme/personal/url/create', {}],
    ['organization/acme/team/sales/url/create', {}],
  ] as const) {
    const answer = await post(
      links,
      path,
      { ...body, ...extra },
      { authorization: guestAuthorization() },
    );
    assert.equal(answer.status, 403, path);
    assert.deepEqual(answer.body.errors, { form: ['Permission denied'] });
  }
  const noToken = await post(links, 'url/create', body, {
    authorization: guestAuthorization(),
    forwardedFor: NL,
  });
  assert.deepEqual(noToken.body.errors, { anti_robot_token: [BOT_CHECK_FAILED_MESSAGE] });
});

test('draws again when a random alias is taken (case-insensitively) in the same request', async () => {
  const owner = await createUser({ features: ['use_custom_alias'] });
  const domain = await createDomain();
  const taken = [`Taken${suffix()}`, `Taken${suffix()}`];
  for (const alias of taken) {
    const made = await post(
      links,
      'url/create',
      { url: `https://example.com/${alias}`, domain: domain.domain, alias },
      { authorization: owner.authorization },
    );
    assert.equal(made.status, 200);
  }
  const fresh = `Fresh${suffix()}`;
  const draws = [taken[0]!.toLowerCase(), taken[1]!.toUpperCase(), fresh];
  const drawn: string[] = [];
  const retrying = createLinksHandler(
    stackDependencies({
      aliasOptions: {
        generate: () => {
          const next = draws.shift() ?? assert.fail('drew more than three times');
          drawn.push(next);
          return next;
        },
      },
    }),
  );
  const user = await createUser();
  const answer = await post(
    retrying,
    'url/create',
    { url: 'https://example.com/retried', domain: domain.domain },
    { authorization: user.authorization },
  );
  assert.equal(answer.status, 200);
  assert.equal(answer.body[0].aliases[0].alias, fresh);
  assert.equal(drawn.length, 3);
  // The failed draws left nothing behind: one link for the URL, owned by the caller.
  const rows = await sql()<{ alias: string }[]>`
    select a.alias::text from public.aliases a join public.long_urls u on u.id = a.long_url_id
    where u.url = 'https://example.com/retried' and a.account_id = ${user.accountId}`;
  assert.deepEqual([...rows], [{ alias: fresh }]);
});

test('gives up with a 503 when every draw is taken', async () => {
  const owner = await createUser({ features: ['use_custom_alias'] });
  const domain = await createDomain();
  const taken = `Always${suffix()}`;
  await post(
    links,
    'url/create',
    { url: 'https://example.com/', domain: domain.domain, alias: taken },
    { authorization: owner.authorization },
  );
  let attempts = 0;
  const unlucky = createLinksHandler(
    stackDependencies({ aliasOptions: { generate: () => (attempts++, taken) } }),
  );
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  let answer;
  try {
    answer = await post(
      unlucky,
      'url/create',
      { url: 'https://example.com/unlucky', domain: domain.domain },
      { authorization: owner.authorization },
    );
  } finally {
    console.error = original;
  }
  assert.deepEqual(answer, {
    status: 503,
    body: {
      code: 'alias_exhausted',
      message: 'Something went wrong.',
      errors: { form: ['Something went wrong.'] },
    },
  });
  assert.equal(attempts, 5);
  assert.equal(logged.length, 1);
});

test('puts RPC refusals on the form fields with the spec messages', async () => {
  const user = await createUser();
  const domain = await createDomain();
  const base = { url: 'https://example.com/a', domain: domain.domain };
  const cases: [Record<string, unknown>, number, Record<string, string[]>][] = [
    [{ alias: 'mine' }, 403, { alias: ['custom_alias_not_allowed'] }],
    [{ tags: ['promo'] }, 403, { tags: ['Your plan does not allow tags.'] }],
    [
      { description: 'hello' },
      422,
      { description: ['A description is only available in organizations.'] },
    ],
    [{ domain: 'unknown.example' }, 422, { domain: ['Domain not found.'] }],
  ];
  for (const [extra, status, errors] of cases) {
    const answer = await post(
      links,
      'url/create',
      { ...base, ...extra },
      {
        authorization: user.authorization,
      },
    );
    assert.deepEqual([answer.status, answer.body.errors], [status, errors], JSON.stringify(extra));
  }
});

test('finds the workspace the route and body name, as the caller sees it', async () => {
  const owner = await createUser();
  const member = await createUser();
  const viewer = await createUser();
  const stranger = await createUser();
  const domain = await createDomain();
  const body = { url: 'https://example.com/team', domain: domain.domain };
  const standalone = await createTeam({
    owner,
    inOrganization: false,
    members: [{ user: member, role: 'member' }],
  });
  const inOrganization = await createTeam({
    owner,
    inOrganization: true,
    members: [
      { user: member, role: 'member' },
      { user: viewer, role: 'viewer' },
    ],
  });
  const org = inOrganization.organizationSlug!;
  const teamPath = `organization/${org}/team/${inOrganization.slug}/url/create`;
  const as = (user: { authorization: string }) => ({ authorization: user.authorization });

  const inStandalone = await post(
    links,
    'url/create',
    { ...body, team: standalone.slug },
    as(member),
  );
  assert.equal(inStandalone.status, 200);
  const inTeam = await post(links, teamPath, body, as(member));
  assert.equal(inTeam.status, 200);
  const agreeing = await post(links, teamPath, { ...body, team: inOrganization.slug }, as(member));
  assert.equal(agreeing.status, 200);
  const personal = await post(
    links,
    `organization/${org}/personal/url/create`,
    { ...body, description: 'made in organization mode' },
    as(member),
  );
  assert.equal(personal.status, 200);
  const [placed] = await sql()<{ team: number; personal: number }[]>`
    select count(*) filter (where account_id = ${inOrganization.accountId})::int as team,
           count(*) filter (where account_id = ${member.accountId} and organization_id is not null)::int as personal
    from public.aliases where domain_id = ${domain.id}`;
  assert.deepEqual(placed, { team: 2, personal: 1 });

  const refusals: [
    string,
    Record<string, unknown>,
    { authorization: string },
    number,
    Record<string, string[]>,
  ][] = [
    [teamPath, body, as(viewer), 403, { team: ['You are not a selected team member'] }],
    [
      'url/create',
      { ...body, team: inOrganization.slug },
      as(member),
      404,
      { team: ['Unknown team.'] },
    ],
    [
      'url/create',
      { ...body, team: standalone.slug },
      as(stranger),
      404,
      { team: ['Unknown team.'] },
    ],
    [teamPath, { ...body, team: standalone.slug }, as(member), 404, { team: ['Unknown team.'] }],
    [
      `organization/${org}/team/nope/url/create`,
      body,
      as(member),
      404,
      { team: ['Unknown team.'] },
    ],
    [
      `organization/${org}/personal/url/create`,
      { ...body, team: 'x' },
      as(member),
      404,
      { team: ['Unknown team.'] },
    ],
    [teamPath, body, as(stranger), 404, { form: ['Organization not found.'] }],
    [
      `organization/nope-${suffix()}/personal/url/create`,
      body,
      as(member),
      404,
      { form: ['Organization not found.'] },
    ],
  ];
  for (const [path, payload, caller, status, errors] of refusals) {
    const answer = await post(links, path, payload, caller);
    assert.deepEqual(
      [answer.status, answer.body.errors],
      [status, errors],
      `${path} ${JSON.stringify(payload)}`,
    );
  }
});
