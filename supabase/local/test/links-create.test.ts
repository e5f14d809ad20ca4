import http from 'node:http';
import {
  createClient,
  FunctionsHttpError,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import ws from 'ws';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { createDomain, givePlan, type TestDomain } from '../../tests/links/fixtures.ts';
import {
  addTeamMember,
  createOrganization,
  createTeam,
  createUser,
  uniqueSuffix,
  useDatabase,
  type TestUser,
} from '../../tests/support/index.ts';
import { SANDBOX_SITEKEY } from '../src/captcha-sandbox.ts';
import { signToken } from '../src/jwt.ts';

/**
 * The links function over HTTP, through the gateway as the apps call it: every create rule for a
 * guest, a free user, a paid user, an organization team member and a team viewer, each with the
 * spec's message on its field; the hostile URL list; the answer's shape. (Random alias collisions
 * are forced in supabase/functions/links/handler.test.ts, which can inject the draws.)
 */

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;

const env = inject('stackEnv');
const pool = useDatabase();
const FUNCTION_URL = `${env.SUPABASE_URL}/functions/v1/links`;
const US_ADDRESS = '8.8.8.8';
const NL_ADDRESS = '193.0.6.139';
/** TEST-NET-1, the local stack's anti-robot whitelist (supabase/functions/.env.example). */
const WHITELISTED_ADDRESS = '192.0.2.10';

const PAID_FEATURES = ['use_custom_alias', 'use_tags', 'manage_expiration'];

interface Caller {
  authorization: string;
}

interface Answer {
  status: number;
  // The answer is read field by field against the spec's shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

let db: pg.PoolClient;
const users: TestUser[] = [];
const domains: TestDomain[] = [];

const guest: Caller = { authorization: `Bearer ${env.SUPABASE_ANON_KEY}` };
let free: Caller;
let unverified: Caller;
let paid: Caller;
let limited: Caller;
let member: Caller;
let viewer: Caller;
let organizationSlug: string;
let teamSlug: string;

/** Domains by who may use them (seed-like flags, names of their own). */
const domain = {} as Record<
  | 'guests'
  | 'guestAliases'
  | 'usersOnly'
  | 'verifiedOnly'
  | 'subscribersOnly'
  | 'disabled'
  | 'organization',
  TestDomain
>;

async function person(
  options: { confirmed?: boolean; plan?: Parameters<typeof givePlan>[2] } = {},
) {
  const user = await createUser(db, { confirmed: options.confirmed ?? true });
  users.push(user);
  if (options.plan) await givePlan(db, user.personalAccountId, options.plan);
  const token = await signToken(env.SUPABASE_JWT_SECRET, {
    sub: user.id,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    email: user.email,
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  return { user, caller: { authorization: `Bearer ${token}` } };
}

async function create(
  path: string,
  body: unknown,
  caller: Caller,
  forwardedFor?: string,
): Promise<Answer> {
  const response = await fetch(`${FUNCTION_URL}/${path}`, {
    method: 'POST',
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: caller.authorization,
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * A guest's create sent from `localAddress` with the X-Forwarded-For it writes itself: fetch
 * cannot choose the socket's address, so this speaks node:http.
 */
function createFrom(localAddress: string, body: unknown, forwardedFor: string): Promise<Answer> {
  const url = new URL(`${FUNCTION_URL}/url/create`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: {
          apikey: env.SUPABASE_ANON_KEY,
          authorization: guest.authorization,
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const own = (body: unknown, caller: Caller, forwardedFor?: string) =>
  create('url/create', body, caller, forwardedFor);

/** A token from the sandbox, as the portal's widget obtains one. */
async function botToken(): Promise<string> {
  const response = await fetch(`${env.SUPABASE_URL}/sandbox/hcaptcha/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sitekey: SANDBOX_SITEKEY }),
  });
  return ((await response.json()) as { response: string }).response;
}

/** A guest's body on a domain guests may use, from a non-US address, with a fresh token. */
async function asGuest(body: Record<string, unknown> = {}) {
  return own(
    {
      url: `https://example.com/guest/${uniqueSuffix()}`,
      domain: domain.guests.domain,
      anti_robot_token: await botToken(),
      ...body,
    },
    guest,
    NL_ADDRESS,
  );
}

const link = (extra: Record<string, unknown> = {}) => ({
  url: `https://example.com/${uniqueSuffix()}`,
  domain: domain.usersOnly.domain,
  ...extra,
});

/** A refusal: its status and the single field it names, with the message. */
function expectRefusal(answer: Answer, status: number, field: string, message: string) {
  expect({
    status: answer.status,
    errors: answer.body.errors,
    message: answer.body.message,
  }).toEqual({ status, errors: { [field]: [message] }, message });
}

function expectCreated(answer: Answer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toHaveLength(1);
  const item = answer.body[0];
  expect(Object.keys(item).sort()).toEqual(['aliases', 'url']);
  expect(item.aliases).toHaveLength(1);
  const alias = item.aliases[0];
  expect(Object.keys(alias).sort()).toEqual(
    ['affiliates', 'alias', 'domain', 'is_main', 'tags', 'tiny_url'].sort(),
  );
  // Short domains answer on the stack's gateway port, over http (SHORT_URL_BASE of local-env.ts).
  const { port } = new URL(env.SUPABASE_URL);
  expect(alias.tiny_url).toBe(`http://${alias.domain}:${port}/${alias.alias}`);
  return { url: item.url as string, alias };
}

const inFiveMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();

beforeAll(async () => {
  db = await pool.connect();
  domain.guests = await createDomain(db, { allowForGuests: true });
  domain.guestAliases = await createDomain(db, {
    allowForGuests: true,
    guestCanUseCustomAlias: true,
  });
  domain.usersOnly = await createDomain(db);
  domain.verifiedOnly = await createDomain(db, { requireEmailVerification: true });
  domain.subscribersOnly = await createDomain(db, { subscribedOnly: true });
  domain.disabled = await createDomain(db, { isDisabled: true, allowForGuests: true });
  domains.push(...Object.values(domain));

  free = (await person()).caller;
  unverified = (await person({ confirmed: false })).caller;
  paid = (await person({ plan: { features: PAID_FEATURES } })).caller;
  limited = (await person({ plan: { features: [], options: { max_aliases_per_month: 1 } } }))
    .caller;

  const owner = await person();
  const organization = await createOrganization(db, {
    ownerId: owner.user.id,
    features: ['use_tags', 'manage_expiration'],
  });
  organizationSlug = organization.slug;
  const team = await createTeam(db, { ownerId: owner.user.id, organizationId: organization.id });
  teamSlug = team.slug;
  const teamMember = await person();
  const teamViewer = await person();
  await addTeamMember(db, { teamId: team.id, userId: teamMember.user.id, role: 'member' });
  await addTeamMember(db, { teamId: team.id, userId: teamViewer.user.id, role: 'viewer' });
  member = teamMember.caller;
  viewer = teamViewer.caller;
  domain.organization = await createDomain(db, {
    kind: 'organization',
    accountId: organization.accountId,
  });
  domains.push(domain.organization);
});

afterAll(async () => {
  const domainIds = domains.map((row) => row.id);
  await db.query('delete from public.aliases where domain_id = any($1)', [domainIds]);
  await db.query('delete from public.domains where id = any($1)', [domainIds]);
  await db.query('delete from public.banned_domains where domain like $1', [
    '%.banned-by-test.example',
  ]);
  await db.query('delete from auth.users where id = any($1)', [users.map((user) => user.id)]);
  db.release();
});

describe('links: guests', () => {
  it('create with a fresh bot-check token, getting a random base62 alias in the spec shape', async () => {
    const answer = await asGuest({ url: 'https://Example.com/Path?q=1' });
    const { url, alias } = expectCreated(answer);
    expect(url).toBe('https://example.com/Path?q=1');
    expect(alias).toEqual({
      domain: domain.guests.domain,
      alias: expect.stringMatching(/^[0-9A-Za-z]{7}$/),
      tiny_url: expect.any(String),
      is_main: true,
      tags: [],
      affiliates: [],
    });
  });

  it('are refused without a token, and with a token already used', async () => {
    expectRefusal(
      await own({ url: 'https://example.com', domain: domain.guests.domain }, guest, NL_ADDRESS),
      422,
      'anti_robot_token',
      MESSAGES.antiRobotFailed,
    );
    const token = await botToken();
    expectCreated(await asGuest({ anti_robot_token: token }));
    expectRefusal(
      await asGuest({ anti_robot_token: token }),
      422,
      'anti_robot_token',
      MESSAGES.antiRobotFailed,
    );
  });

  it('skip the bot check from a whitelisted address', async () => {
    expectCreated(
      await own(
        { url: 'https://example.com/w', domain: domain.guests.domain },
        guest,
        WHITELISTED_ADDRESS,
      ),
    );
  });

  it('do not skip it by claiming a whitelisted address: only a trusted proxy names the client', async () => {
    // The test stack trusts its proxy on 127.0.0.1 (test-stack-env.ts); 127.0.0.2 is any caller.
    const body = { url: 'https://example.com/forged', domain: domain.guests.domain };
    expectRefusal(
      await createFrom('127.0.0.2', body, WHITELISTED_ADDRESS),
      422,
      'anti_robot_token',
      MESSAGES.antiRobotFailed,
    );
    expectCreated(await createFrom('127.0.0.1', body, WHITELISTED_ADDRESS));
  });

  it('from the US must accept the CCPA notice; the refused attempt leaves the token usable', async () => {
    const token = await botToken();
    const body = {
      url: 'https://example.com/us',
      domain: domain.guests.domain,
      anti_robot_token: token,
    };
    expectRefusal(
      await own(body, guest, US_ADDRESS),
      422,
      'ccpa_accepted',
      'The ccpa accepted field must be accepted.',
    );
    expectCreated(await own({ ...body, ccpa_accepted: true }, guest, US_ADDRESS));
    // Elsewhere nobody asks.
    expectCreated(await asGuest({ ccpa_accepted: false }));
  });

  it('may only use domains open to guests', async () => {
    expectRefusal(
      await asGuest({ domain: domain.usersOnly.domain }),
      422,
      'domain',
      'This domain is not available to guest users.',
    );
    expectRefusal(
      await asGuest({ domain: domain.disabled.domain }),
      422,
      'domain',
      'Domain not found.',
    );
  });

  it('may type an alias only where the domain allows guest aliases', async () => {
    expectRefusal(
      await asGuest({ alias: `g${uniqueSuffix()}` }),
      403,
      'alias',
      'custom_alias_not_allowed',
    );
    const alias = `Guest-${uniqueSuffix()}`;
    expect(
      expectCreated(await asGuest({ domain: domain.guestAliases.domain, alias })).alias.alias,
    ).toBe(alias);
  });

  it('may not tag, expire, describe or name a workspace', async () => {
    expectRefusal(
      await asGuest({ tags: ['promo'] }),
      403,
      'tags',
      'Your plan does not allow tags.',
    );
    expectRefusal(
      await asGuest({ expires_at: inFiveMinutes() }),
      403,
      'expires_at',
      'Your plan does not allow link expiry.',
    );
    expectRefusal(
      await asGuest({ description: 'hi' }),
      422,
      'description',
      'A description is only available in organizations.',
    );
    expectRefusal(await asGuest({ team: 'marketing' }), 403, 'form', 'Permission denied');
    expectRefusal(
      await create(`organization/${organizationSlug}/personal/url/create`, link(), guest),
      403,
      'form',
      'Permission denied',
    );
  });
});

describe('links: a free user', () => {
  it('creates with a random alias', async () => {
    const { alias } = expectCreated(await own(link(), free));
    expect(alias.alias).toMatch(/^[0-9A-Za-z]{7}$/);
  });

  it('may not type an alias, tag, expire or describe', async () => {
    expectRefusal(
      await own(link({ alias: `f${uniqueSuffix()}` }), free),
      403,
      'alias',
      'custom_alias_not_allowed',
    );
    expectRefusal(
      await own(link({ tags: ['promo'] }), free),
      403,
      'tags',
      'Your plan does not allow tags.',
    );
    expectRefusal(
      await own(link({ expires_at: inFiveMinutes() }), free),
      403,
      'expires_at',
      'Your plan does not allow link expiry.',
    );
    expectRefusal(
      await own(link({ description: 'hi' }), free),
      422,
      'description',
      'A description is only available in organizations.',
    );
  });

  it('is sent to billing for a subscribers-only domain; disabled and unknown domains are not found', async () => {
    expectRefusal(
      await own(link({ domain: domain.subscribersOnly.domain }), free),
      402,
      'domain',
      'billing.not_subscribed',
    );
    for (const name of [domain.disabled.domain, `nowhere-${uniqueSuffix()}.example`])
      expectRefusal(await own(link({ domain: name }), free), 422, 'domain', 'Domain not found.');
  });

  it('must verify the e-mail address for such domains and for aliases while unverified', async () => {
    expectRefusal(
      await own(link({ domain: domain.verifiedOnly.domain }), unverified),
      403,
      'domain',
      'Please verify your e-mail address first.',
    );
    expectRefusal(
      await own(link({ alias: `u${uniqueSuffix()}` }), unverified),
      403,
      'alias',
      'Please verify your e-mail address first.',
    );
    expectCreated(await own(link({ domain: domain.verifiedOnly.domain }), free));
  });

  it('hits the plan limit with the spec message', async () => {
    expectCreated(await own(link(), limited));
    expectRefusal(
      await own(link(), limited),
      402,
      'form',
      "You've hit your plan's limit for creating links",
    );
  });

  it('gets the form rules per field: url, domain, tags.N, alias format, expiry window, types', async () => {
    const answer = await own(
      {
        url: '',
        domain: '',
        alias: 'no spaces',
        tags: ['ok', 'x', 'OK'],
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        anti_robot_token: 5,
        surprise: true,
      },
      free,
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      code: 'validation_failed',
      message: 'The URL field is required.',
      errors: {
        url: ['The URL field is required.'],
        domain: ['The domain field is required.'],
        alias: ['The alias may only contain letters, numbers, dashes and underscores.'],
        'tags.1': ['The tag must be at least 2 characters.'],
        'tags.2': ['The tag has already been taken.'],
        expires_at: ['The expiry must be at least 5 minutes from now.'],
        anti_robot_token: ['The anti robot token field must be a string.'],
        surprise: ['The surprise field is prohibited.'],
      },
    });
    expectRefusal(
      await own(
        link({ expires_at: new Date(Date.now() + 6 * 365 * 86_400_000).toISOString() }),
        free,
      ),
      422,
      'expires_at',
      'The expiry must be within 5 years.',
    );
    expectRefusal(
      await own('not json', free),
      422,
      'form',
      'The request body must be a JSON object.',
    );
  });
});

describe('links: blocked addresses (kiosk "ips")', () => {
  it('refuses creation from a blocked range, for users and guests, and allows it once unblocked', async () => {
    // A range the seed does not block (it blocks 203.0.113.0/24 and 198.51.100.7).
    const range = '100.64.77.0/24';
    await db.query('insert into public.ip_blocks (range, reason) values ($1, $2)', [
      range,
      'links-create test',
    ]);
    try {
      expectRefusal(await own(link(), free, '100.64.77.9'), 403, 'form', MESSAGES.permissionDenied);
      // A made-up entry on the left cannot hide a blocked address either.
      expectRefusal(
        await own(link(), free, '100.64.78.7, 100.64.77.9'),
        403,
        'form',
        MESSAGES.permissionDenied,
      );
      const blockedGuest = await own(
        {
          url: `https://example.com/guest/${uniqueSuffix()}`,
          domain: domain.guests.domain,
          anti_robot_token: await botToken(),
        },
        guest,
        '100.64.77.20',
      );
      expectRefusal(blockedGuest, 403, 'form', MESSAGES.permissionDenied);
      expectCreated(await own(link(), free, '100.64.78.7'));
    } finally {
      await db.query('delete from public.ip_blocks where range = $1', [range]);
    }
    expectCreated(await own(link(), free, '100.64.77.9'));
  });
});

describe('links: a paid user', () => {
  it('types an alias, tags and sets an expiry', async () => {
    const alias = `Paid_${uniqueSuffix()}`;
    const expiresAt = inFiveMinutes();
    const { alias: created } = expectCreated(
      await own(link({ alias, tags: [' Spring Sale ', 'EMAIL', ''], expires_at: expiresAt }), paid),
    );
    expect(created).toMatchObject({ alias, tags: ['email', 'springsale'], is_main: true });
    const { rows } = await db.query<{ expires_at: Date }>(
      'select expires_at from public.aliases where alias = $1',
      [alias],
    );
    expect(rows[0]?.expires_at.toISOString()).toBe(expiresAt);
  });

  it('may use subscribers-only domains', async () => {
    expectCreated(await own(link({ domain: domain.subscribersOnly.domain }), paid));
  });

  it('is told when an alias is taken (ignoring case) or reserved', async () => {
    const alias = `Taken${uniqueSuffix()}`;
    expectCreated(await own(link({ alias }), paid));
    expectRefusal(
      await own(link({ alias: alias.toLowerCase() }), paid),
      422,
      'alias',
      'The new alias is not unique',
    );
    expectRefusal(
      await own(link({ alias: 'settings' }), paid),
      422,
      'alias',
      'This alias is reserved.',
    );
  });

  it('still needs an organization for a description', async () => {
    expectRefusal(
      await own(link({ description: 'hi' }), paid),
      422,
      'description',
      'A description is only available in organizations.',
    );
  });

  it('answers through supabase-js functions.invoke as the portal calls it', async () => {
    const supabase = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: paid.authorization } },
      realtime: { transport: ws as unknown as RealtimeTransport },
    });
    const { data, error } = await supabase.functions.invoke('links/url/create', {
      body: link({ tags: ['invoke'] }),
    });
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        url: expect.stringMatching(/^https:\/\/example\.com\//),
        aliases: [expect.objectContaining({ tags: ['invoke'], affiliates: [] })],
      },
    ]);
    const refused = await supabase.functions.invoke('links/url/create', {
      body: link({ alias: 'api' }),
    });
    expect(refused.error).toBeInstanceOf(FunctionsHttpError);
    const response = (refused.error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ errors: { alias: ['This alias is reserved.'] } });
  });
});

describe('links: an organization team', () => {
  const teamPath = () => `organization/${organizationSlug}/team/${teamSlug}/url/create`;
  const personalPath = () => `organization/${organizationSlug}/personal/url/create`;

  it('member creates team links with the organization’s features, on its domain', async () => {
    const { alias } = expectCreated(
      await create(
        teamPath(),
        link({
          domain: domain.organization.domain,
          description: 'Team campaign',
          tags: ['q4'],
          expires_at: inFiveMinutes(),
        }),
        member,
      ),
    );
    expect(alias).toMatchObject({ domain: domain.organization.domain, tags: ['q4'] });
    const { rows } = await db.query<{ kind: string; description: string }>(
      `select ac.kind, a.description from public.aliases a
       join public.accounts ac on ac.id = a.account_id where a.alias = $1`,
      [alias.alias],
    );
    expect(rows).toEqual([{ kind: 'team', description: 'Team campaign' }]);
  });

  it('member creates personal links in organization mode', async () => {
    expectCreated(await create(personalPath(), link({ description: 'Mine, in the org' }), member));
  });

  it('member may not type an alias the organization’s plan does not allow', async () => {
    expectRefusal(
      await create(teamPath(), link({ alias: `t${uniqueSuffix()}` }), member),
      403,
      'alias',
      'custom_alias_not_allowed',
    );
  });

  it('viewer may not create team links', async () => {
    expectRefusal(
      await create(teamPath(), link(), viewer),
      403,
      'team',
      'You are not a selected team member',
    );
  });

  it('outsiders and unknown slugs find nothing', async () => {
    expectRefusal(await create(teamPath(), link(), free), 404, 'form', 'Organization not found.');
    expectRefusal(
      await create(`organization/${organizationSlug}/team/nope/url/create`, link(), member),
      404,
      'team',
      'Unknown team.',
    );
    expectRefusal(await own(link({ team: 'nope' }), member), 404, 'team', 'Unknown team.');
    // An organization's domain is not for links outside the organization.
    expectRefusal(
      await own(link({ domain: domain.organization.domain }), free),
      422,
      'domain',
      'Domain not found.',
    );
  });
});

describe('links: hostile destinations never reach the database', () => {
  const notAllowed = [
    // Loopback in every notation.
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://127.000.000.001/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://localhost:8080/',
    'http://app.localhost/',
    'http://0.0.0.0/',
    'http://0/',
    // Private, shared and link-local, including IPv4-mapped IPv6.
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://3232235777/',
    'http://[::ffff:192.168.1.1]/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    // Cloud metadata.
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://2852039166/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://100.100.100.200/',
    // Other schemes, credentials, an ambiguous authority.
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/file',
    'https://user:secret@example.com/',
    'https://example.com@evil.example/',
    'http://evil.example\\@example.com/',
  ];
  const invalid = [
    'https://example.com/\r\nSet-Cookie: a=b',
    'https://example.com/%0d%0a\n',
    '\nhttps://example.com/',
    'https://exa\tmple.com/',
    `https://example.com/${'a'.repeat(8200)}`,
  ];

  it.each(notAllowed)('refuses %s as not allowed', async (url) => {
    expectRefusal(await own(link({ url }), free), 422, 'url', 'This URL is not allowed.');
  });

  it.each(invalid.map((url) => [JSON.stringify(url).slice(0, 60), url]))(
    'refuses %s as invalid',
    async (_label, url) => {
      expectRefusal(await own(link({ url }), free), 422, 'url', 'The url must be a valid URL.');
    },
  );

  it('refuses links to our own short domains and their subdomains', async () => {
    for (const url of [
      `https://${domain.guests.domain}/abc`,
      `http://www.${domain.usersOnly.domain}/`,
    ])
      expectRefusal(await own(link({ url }), paid), 422, 'url', 'This URL is not allowed.');
  });

  it('refuses banned domains and their subdomains, not their neighbours', async () => {
    const banned = `x${uniqueSuffix()}.banned-by-test.example`;
    await db.query('insert into public.banned_domains (domain) values ($1)', [banned]);
    for (const url of [`https://${banned}/`, `https://a.b.${banned.toUpperCase()}/path`])
      expectRefusal(await own(link({ url }), free), 422, 'url', 'This domain is banned.');
    expectCreated(await own(link({ url: `https://not${banned}/` }), free));
  });

  it('tells a guest about the URL before asking for the bot check', async () => {
    expectRefusal(
      await own(
        { url: 'http://[::ffff:10.0.0.1]/', domain: domain.guests.domain },
        guest,
        NL_ADDRESS,
      ),
      422,
      'url',
      'This URL is not allowed.',
    );
  });

  it('stored nothing for any of them', async () => {
    // This file's callers and guests: other files may store (public) IPv6 destinations, or
    // legacy rows around the destination rule, at the same time.
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::int as count from public.long_urls
       where url ~* '^(javascript|data|file|ftp):|//(127\\.|10\\.|192\\.168|169\\.254|localhost|\\[)'
         and (account_id is null or account_id = any($1::uuid[]))`,
      [users.map((user) => user.personalAccountId)],
    );
    expect(rows[0]?.count).toBe(0);
  });
});
