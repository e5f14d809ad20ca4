import fs from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Short links over HTTP, as a browser meets them: requests with the Host of a short domain go
 * through the gateway to the `r` function (real Deno) and its clicks into Postgres. The seeded
 * domains are *.localhost (supabase/seeds/20_links.sql); this file adds its own links on them
 * and one domain of its own, and removes them afterwards.
 */

const env = inject('stackEnv');
const gateway = new URL(env.SUPABASE_URL);
const db = new pg.Client({ connectionString: env.DB_URL });
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** MaxMind's own GeoLite2 test address in the United Kingdom; 8.8.8.8 is in the United States. */
const UK_ADDRESS = '81.2.69.142';

interface Answer {
  status: number;
  location: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request as a browser on the short domain sends it (fetch may not set Host). */
function visit(
  host: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: gateway.hostname,
        port: gateway.port,
        path,
        method,
        agent,
        headers: { host, 'user-agent': IPHONE, ...headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            headers: response.headers,
            body,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

const suffix = Math.random().toString(36).slice(2, 8);
const OWN_DOMAIN = `rt${suffix}.localhost`;
const created: string[] = [];
let fran: { accountId: string; userId: string };

/**
 * A link of Fran (free plan) on a seeded or this file's domain. `legacy`: written as rows from
 * before the destination rule were, around its triggers (replica mode), so that a destination
 * the rule now refuses can be stored.
 */
async function createLink(
  domain: string,
  alias: string,
  url: string,
  extra: { status?: string; expiresAt?: Date; legacy?: boolean } = {},
): Promise<string> {
  if (extra.legacy) {
    await db.query('begin');
    await db.query('set local session_replication_role = replica');
  }
  const { rows } = await db.query<{ id: string }>(
    `with long_url as (
       insert into public.long_urls (account_id, url) values ($1, $2)
       on conflict (account_id, md5(url)) do update set updated_at = now() returning id
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, status, expires_at,
       created_by, is_main)
     select l.id, $1, d.id, $4, $5, $6, $7, false from long_url l, public.domains d where d.domain = $3
     returning id`,
    [
      fran.accountId,
      url,
      domain,
      alias,
      extra.status ?? 'active',
      extra.expiresAt ?? null,
      fran.userId,
    ],
  );
  if (extra.legacy) await db.query('commit');
  const id = rows[0]?.id;
  if (!id) throw new Error(`no link ${domain}/${alias}`);
  created.push(id);
  return id;
}

async function clicksOf(aliasId: string) {
  const { rows } = await db.query<{
    country: string | null;
    device: string;
    browser: string | null;
    os: string | null;
    referrer_host: string | null;
    is_bot: boolean;
    is_qr: boolean;
  }>(
    `select country, device, browser, os, referrer_host, is_bot, is_qr
     from public.clicks where alias_id = $1 order by time`,
    [aliasId],
  );
  return rows;
}

async function countClicks(aliasIds: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from public.clicks where alias_id = any ($1)',
    [aliasIds],
  );
  return rows[0]?.n ?? 0;
}

/** Clicks are written in batches (every 250 ms): waits until `expected` are in, or 5 s. */
async function waitForClicks(aliasIds: string[], expected: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  let count = await countClicks(aliasIds);
  while (count < expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    count = await countClicks(aliasIds);
  }
  return count;
}

const tag = () => Math.random().toString(36).slice(2, 10);

beforeAll(async () => {
  await db.connect();
  const { rows } = await db.query<{ accountId: string; userId: string }>(
    `select personal_account_id as "accountId", id as "userId"
     from public.profiles where email = 'free@shortlane.test'`,
  );
  fran = rows[0]!;
  await db.query(
    `insert into public.domains (domain, kind, verification_status, verified_at,
       not_found_redirect_url, root_redirect_url, redirect_status)
     values ($1, 'common', 'verified', now(), 'https://example.com/lost', null, 302)`,
    [OWN_DOMAIN],
  );
});

afterAll(async () => {
  await db.query('delete from public.aliases where id = any ($1)', [created]);
  await db.query(
    `delete from public.aliases a using public.domains d
    where a.domain_id = d.id and d.domain = $1`,
    [OWN_DOMAIN],
  );
  await db.query('delete from public.domains where domain = $1', [OWN_DOMAIN]);
  // Destinations left without links, the unsafe legacy ones among them (other files count
  // what is stored anywhere).
  await db.query(
    `delete from public.long_urls u where u.account_id = $1
       and not exists (select 1 from public.aliases a where a.long_url_id = u.id)`,
    [fran.accountId],
  );
  await db.query(`delete from public.ip_blocks where reason = $1`, [`redirect test ${suffix}`]);
  await db.end();
  agent.destroy();
});

describe('short domains through the gateway', () => {
  it('a seeded link redirects with its domain’s status (301 on shrt.localhost)', async () => {
    const answer = await visit('shrt.localhost', '/k3v9x2ab');
    expect(answer.status).toBe(301);
    expect(answer.location).toBe('https://en.wikipedia.org/wiki/URL_shortening');
  });

  it('302 where the domain says so (pro.localhost), with the visitor’s query merged', async () => {
    const answer = await visit('pro.localhost:54321', '/black-friday?ref=mail&qr=1');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('https://shop.example.com/deals/black-friday?ref=mail');
    // The destination's own UTM tags stay; the visitor's of the same name are dropped.
    const utm = await visit('pat-links.localhost', '/spring-launch?utm_source=spam&x=1');
    expect(utm.location).toBe(
      'https://pat.example.com/launch?utm_source=newsletter&utm_medium=email&utm_campaign=spring&x=1',
    );
  });

  it('a domain the gateway learns of after start is routed (NOTIFY short_domains)', async () => {
    const alias = `n${tag()}`;
    await createLink(OWN_DOMAIN, alias, 'https://example.com/new-domain');
    const answer = await visit(OWN_DOMAIN, `/${alias}`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('https://example.com/new-domain');
  });

  it('the root goes to the root redirect; without one, the home page', async () => {
    const root = await visit('pat-links.localhost', '/');
    expect(root.status).toBe(302);
    expect(root.location).toBe('https://pat.example.com/');
    const home = await visit('shrt.localhost', '/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.body).toContain('<h1>Short links by Shortlane</h1>');
  });

  it('unknown aliases get the domain’s 404 redirect, or the 404 page', async () => {
    const redirected = await visit('acme.localhost', '/no-such-link');
    expect(redirected.status).toBe(302);
    expect(redirected.location).toBe('https://acme.example.com/not-found');
    const page = await visit('shrt.localhost', '/no-such-link');
    expect(page.status).toBe(404);
    expect(page.body).toContain('<h1>Link not found</h1>');
    // A disabled domain answers 404 for everything, its root too.
    expect((await visit('old.localhost', '/')).status).toBe(404);
  });

  it('expired, archived, terminated, deleted, banned and unsafe links get their pages', async () => {
    const banned = `bd${tag()}.example`;
    await db.query('insert into public.banned_domains (domain) values ($1)', [banned]);
    try {
      const links: [string, Record<string, unknown>, string, number, string][] = [
        [
          'expired',
          { expiresAt: new Date(Date.now() - 60_000) },
          'https://example.com/e',
          410,
          'This link has expired',
        ],
        [
          'archived',
          { status: 'archived' },
          'https://example.com/a',
          410,
          'This link is no longer active',
        ],
        [
          'terminated',
          { status: 'terminated' },
          'https://example.com/t',
          410,
          'This link has been disabled',
        ],
        ['deleted', { status: 'deleted' }, 'https://example.com/d', 404, 'Link not found'],
        // Made before the ban, and before the destination rule (stored around it).
        ['banned', { legacy: true }, `https://www.${banned}/x`, 410, 'This link has been blocked'],
        [
          'metadata',
          { legacy: true },
          'http://169.254.169.254/latest/meta-data/',
          410,
          'This link has been blocked',
        ],
        ['loopback', { legacy: true }, 'http://2130706433/', 410, 'This link has been blocked'],
      ];
      const alwaysShown = new Set(['terminated', 'banned', 'metadata', 'loopback']);
      const ids: string[] = [];
      for (const [name, extra, url, status, heading] of links) {
        const alias = `${name}-${tag()}`;
        ids.push(await createLink('shrt.localhost', alias, url, extra));
        const answer = await visit('shrt.localhost', `/${alias}`);
        expect(answer.status, name).toBe(status);
        expect(answer.body, name).toContain(`<h1>${heading}</h1>`);
        expect(answer.headers['content-security-policy'], name).toContain("default-src 'none'");
        // On a domain with a 404 redirect, dead links go there, except what staff stopped.
        const own = `${name}-${tag()}`;
        ids.push(await createLink(OWN_DOMAIN, own, url, extra));
        const onOwn = await visit(OWN_DOMAIN, `/${own}`);
        if (alwaysShown.has(name)) expect(onOwn.status, name).toBe(410);
        else
          expect([onOwn.status, onOwn.location], name).toEqual([302, 'https://example.com/lost']);
      }
      // Nothing is written for any of them (a working link's click proves the writer runs).
      const working = await createLink('shrt.localhost', `ok-${tag()}`, 'https://example.com/ok');
      const alias = (
        await db.query<{ alias: string }>('select alias from public.aliases where id = $1', [
          working,
        ])
      ).rows[0]!.alias;
      expect((await visit('shrt.localhost', `/${alias}`)).status).toBe(301);
      expect(await waitForClicks([working], 1)).toBe(1);
      expect(await countClicks(ids)).toBe(0);
    } finally {
      await db.query('delete from public.banned_domains where domain = $1', [banned]);
    }
  });

  it('the preview route shows the destination first', async () => {
    const answer = await visit('pro.localhost', '/preview/deprecated/black-friday?ref=x');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('https://shop.example.com/deals/black-friday?ref=x');
    expect(answer.body).toContain('href="/black-friday?ref=x"');
  });

  it('a blocked address is refused', async () => {
    const alias = `b${tag()}`;
    await createLink('shrt.localhost', alias, 'https://example.com/blocked');
    await db.query('insert into public.ip_blocks (range, reason) values ($1, $2)', [
      '203.0.113.66/32',
      `redirect test ${suffix}`,
    ]);
    const deadline = Date.now() + 1_000;
    let answer = await visit('shrt.localhost', `/${alias}`, { 'x-forwarded-for': '203.0.113.66' });
    while (answer.status !== 403 && Date.now() < deadline) {
      answer = await visit('shrt.localhost', `/${alias}`, { 'x-forwarded-for': '203.0.113.66' });
    }
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Access refused');
    expect(
      (await visit('shrt.localhost', `/${alias}`, { 'x-forwarded-for': '8.8.8.8' })).status,
    ).toBe(301);
  });
});

describe('clicks', () => {
  it('one row per redirect with the visitor’s country, device, browser, OS, referrer and QR flag', async () => {
    const alias = `c${tag()}`;
    const id = await createLink('shrt.localhost', alias, 'https://example.com/clicks');
    await visit('shrt.localhost', `/${alias}?qr=1`, { 'x-forwarded-for': UK_ADDRESS });
    await visit('shrt.localhost', `/${alias}`, {
      'x-forwarded-for': '8.8.8.8',
      'user-agent': WINDOWS_CHROME,
      referer: 'https://news.ycombinator.com/item?id=1',
    });
    await visit('shrt.localhost', `/${alias}`, {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    expect(await waitForClicks([id], 3)).toBe(3);
    expect(await clicksOf(id)).toEqual([
      {
        country: 'GB',
        device: 'mobile',
        browser: 'Mobile Safari',
        os: 'iOS',
        referrer_host: null,
        is_bot: false,
        is_qr: true,
      },
      {
        country: 'US',
        device: 'desktop',
        browser: 'Chrome',
        os: 'Windows',
        referrer_host: 'news.ycombinator.com',
        is_bot: false,
        is_qr: false,
      },
      // No forwarded address: the gateway's own (loopback) has no country.
      {
        country: null,
        device: 'other',
        browser: null,
        os: null,
        referrer_host: null,
        is_bot: true,
        is_qr: false,
      },
    ]);
  });

  it('a changed destination is followed within one second', async () => {
    const alias = `m${tag()}`;
    const id = await createLink('shrt.localhost', alias, `https://example.com/before-${alias}`);
    expect((await visit('shrt.localhost', `/${alias}`)).location).toBe(
      `https://example.com/before-${alias}`,
    );
    await db.query(
      `update public.long_urls l set url = $2 from public.aliases a where a.id = $1 and l.id = a.long_url_id`,
      [id, `https://example.com/after-${alias}`],
    );
    const changedAt = Date.now();
    let location: string | undefined;
    while (Date.now() - changedAt < 1_000) {
      location = (await visit('shrt.localhost', `/${alias}`)).location;
      if (location === `https://example.com/after-${alias}`) break;
    }
    expect(location).toBe(`https://example.com/after-${alias}`);
    expect(Date.now() - changedAt).toBeLessThan(1_000);
  });

  it('clicks still buffered when the function is stopped (SIGTERM) are written, none lost', async () => {
    const alias = `s${tag()}`;
    const id = await createLink('shrt.localhost', alias, 'https://example.com/shutdown');
    // Warm the function, so that the burst is served by one process.
    await visit('shrt.localhost', `/${alias}`);
    let sent = 1;
    expect(await waitForClicks([id], sent)).toBe(sent);

    const pid = functionProcess('r');
    expect(pid, 'the r process of this stack').toBeDefined();
    // A burst, then SIGTERM at once: the batch timer (250 ms) has had no chance to run.
    let buffered = 0;
    for (let attempt = 0; attempt < 3 && buffered === 0; attempt++) {
      const burst = 50;
      const answers = await Promise.all(
        Array.from({ length: burst }, () => visit('shrt.localhost', `/${alias}`)),
      );
      sent += burst;
      expect(answers.every((answer) => answer.status === 301)).toBe(true);
      buffered = sent - (await countClicks([id]));
    }
    expect(buffered, 'clicks were waiting in the buffer when the signal came').toBeGreaterThan(0);
    process.kill(pid!, 'SIGTERM');
    await waitForExit(pid!);
    expect(await countClicks([id])).toBe(sent);
    // The next visit boots a fresh process.
    expect((await visit('shrt.localhost', `/${alias}`)).status).toBe(301);
    expect(await waitForClicks([id], sent + 1)).toBe(sent + 1);
  });
});

/** The Deno process serving `name` for this test's stack (its env names this gateway). */
function functionProcess(name: string): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!args.some((arg) => arg.endsWith(`/functions/${name}/index.ts`))) continue;
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.includes(`SUPABASE_URL=${env.SUPABASE_URL}`)) return Number(entry);
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return undefined;
}

async function waitForExit(pid: number) {
  const deadline = Date.now() + 6_000;
  while (fs.existsSync(`/proc/${pid}`) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(fs.existsSync(`/proc/${pid}`), 'the process ended').toBe(false);
}
