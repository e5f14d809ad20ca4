import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verificationRecordName } from '../../../shared/src/domain-verification.ts';
import { callFunction, rest, rpc, tokenFor } from '../../tests/kiosk/api.ts';
import { givePlan } from '../../tests/links/fixtures.ts';
import { createUser, type TestUser, uniqueSuffix } from '../../tests/support/factories.ts';
import { setDnsRecord, visit, visitSettled } from './domain-helpers.ts';

/**
 * A customer's branded domains through the API the portal uses (PostgREST and domain-verify as
 * the user, with their JWT) and a visitor on the gateway: add, set the records in the DNS
 * sandbox, verify, root and 404 redirects, delete and add again; a vanity subdomain live at once.
 */

const env = inject('stackEnv');
const db = new pg.Client({ connectionString: env.DB_URL });
const REDIRECT_HOST = 'redirect.shortlane.localhost';
let owner: TestUser;
let token: string;
const accounts: string[] = [];

interface Added {
  id: string;
  domain: string;
  verification_token: string;
}

async function addDomain(domain: string, as = token, accountId = owner.personalAccountId) {
  const answer = await rest('domains?select=id,domain,verification_token', {
    method: 'POST',
    token: as,
    body: { domain, kind: 'branded', account_id: accountId },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return (answer.body as Added[])[0]!;
}

async function addLink(domainId: string, alias: string, url: string) {
  await db.query(
    `with long_url as (
       insert into public.long_urls (account_id, url) values ($1, $2) returning id
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, status, created_by)
     select l.id, $1, $3, $4, 'active', $5 from long_url l`,
    [owner.personalAccountId, url, domainId, alias, owner.id],
  );
}

/** Sets both records and asks for a check now, as the portal's "Check now" does. */
async function verify(added: Added) {
  await setDnsRecord(
    added.domain,
    verificationRecordName(added.domain),
    'TXT',
    added.verification_token,
  );
  await setDnsRecord(added.domain, '@', 'CNAME', REDIRECT_HOST);
  const checked = await callFunction('domain-verify', { domain_id: added.id }, token);
  expect(checked.status).toBe(200);
  return checked.body as { verification_status: string; target: { cname: string } };
}

beforeAll(async () => {
  await db.connect();
  owner = await createUser(db);
  accounts.push(owner.personalAccountId);
  await givePlan(db, owner.personalAccountId, {
    features: [
      'add_branded_domains',
      'add_vanity_subdomains',
      'domain_root_redirect',
      'domain_404_redirect',
    ],
    options: { max_domains: 3, max_domains_subdomains: 3, max_vanity_subdomains: 1 },
  });
  token = await tokenFor(owner.id);
});

afterAll(async () => {
  await db.query(`delete from public.aliases where account_id = any($1)`, [accounts]);
  await db.query(`delete from public.long_urls where account_id = any($1)`, [accounts]);
  await db.query(`delete from public.domains where account_id = any($1)`, [accounts]);
  await db.query(`delete from auth.users where id = $1`, [owner.id]);
  await db.end();
});

describe('branded domains through the API', () => {
  it('verifies, then answers its links, its root redirect and its 404 redirect', async () => {
    const added = await addDomain(`bd${uniqueSuffix()}.example`);
    await addLink(added.id, 'launch', 'https://example.com/launch');
    const checked = await verify(added);
    expect(checked).toMatchObject({
      verification_status: 'verified',
      target: { cname: REDIRECT_HOST },
    });
    const patched = await rest(`domains?id=eq.${added.id}`, {
      method: 'PATCH',
      token,
      body: {
        root_redirect_url: 'https://example.com/home',
        not_found_redirect_url: 'https://example.com/missing',
      },
    });
    expect(patched.status).toBe(200);

    const link = await visitSettled(added.domain, '/launch', (a) => a.status !== 404);
    expect(link.location).toBe('https://example.com/launch');
    const root = await visitSettled(added.domain, '/', (a) => a.location !== undefined);
    expect([301, 302]).toContain(root.status);
    expect(root.location).toBe('https://example.com/home');
    const missing = await visit(added.domain, '/no-such-link');
    expect([301, 302]).toContain(missing.status);
    expect(missing.location).toBe('https://example.com/missing');
  }, 30_000);

  it('stays pending with a wrong TXT', async () => {
    const added = await addDomain(`bd${uniqueSuffix()}.example`);
    await setDnsRecord(added.domain, verificationRecordName(added.domain), 'TXT', 'wrong');
    await setDnsRecord(added.domain, '@', 'CNAME', REDIRECT_HOST);
    const checked = await callFunction('domain-verify', { domain_id: added.id }, token);
    expect(checked.body).toMatchObject({
      verification_status: 'pending',
      verification_problem: 'txt_mismatch',
    });
    expect((await visit(added.domain, '/')).status).toBe(404);
  });

  it('deleting stops the links; the name can be added again and verified anew', async () => {
    const name = `bd${uniqueSuffix()}.example`;
    const first = await addDomain(name);
    await addLink(first.id, 'promo', 'https://example.com/promo');
    await verify(first);
    expect((await visitSettled(name, '/promo', (a) => a.status !== 404)).status).not.toBe(404);

    const deleted = await rest(`domains?id=eq.${first.id}`, {
      method: 'PATCH',
      token,
      body: { is_deleted: true },
    });
    expect(deleted.status).toBe(200);
    expect((await visitSettled(name, '/promo', (a) => a.status === 404)).status).toBe(404);

    const again = await addDomain(name);
    expect(again.id).not.toBe(first.id);
    expect(again.verification_token).not.toBe(first.verification_token);
    expect(await verify(again)).toMatchObject({ verification_status: 'verified' });
    // The old row's links stay with the old row: the name answers, the old alias does not.
    expect((await visitSettled(name, '/promo', (a) => a.status === 404)).status).toBe(404);
  }, 30_000);

  it('refuses the plan limit with its message', async () => {
    const other = await createUser(db);
    accounts.push(other.personalAccountId);
    try {
      await givePlan(db, other.personalAccountId, {
        features: ['add_branded_domains'],
        options: { max_domains: 1, max_domains_subdomains: 1 },
      });
      const otherToken = await tokenFor(other.id);
      await addDomain(`bd${uniqueSuffix()}.example`, otherToken, other.personalAccountId);
      const refused = await rest('domains', {
        method: 'POST',
        token: otherToken,
        body: {
          domain: `bd${uniqueSuffix()}.example`,
          kind: 'branded',
          account_id: other.personalAccountId,
        },
      });
      expect(refused).toMatchObject({
        status: 402,
        body: {
          message: 'domain_limit_reached',
          details: "You've reached your plan's limit of domains.",
        },
      });
    } finally {
      await db.query(`delete from public.domains where account_id = $1`, [other.personalAccountId]);
      await db.query(`delete from auth.users where id = $1`, [other.id]);
    }
  });

  it('a vanity subdomain answers at once through the gateway', async () => {
    const base = `base${uniqueSuffix()}.localhost`;
    await db.query(
      `insert into public.domains (domain, kind, is_base, verification_status, verified_at)
       values ($1, 'common', true, 'verified', now())`,
      [base],
    );
    try {
      const label = `v${uniqueSuffix()}`;
      const { rows } = await db.query<{ id: string }>(
        `select id from public.domains where domain = $1`,
        [base],
      );
      const claimed = await rpc(
        'create_vanity_subdomain',
        {
          p_account_id: owner.personalAccountId,
          p_subdomain: label,
          p_base_domain_id: rows[0]!.id,
        },
        token,
      );
      expect(claimed.status).toBe(200);
      const vanity = claimed.body as { id: string; domain: string; verification_status: string };
      expect(vanity).toMatchObject({
        domain: `${label}.${base}`,
        verification_status: 'verified',
      });
      await addLink(vanity.id, 'hello', 'https://example.com/hello');
      const answer = await visitSettled(vanity.domain, '/hello', (a) => a.status !== 404);
      expect([301, 302]).toContain(answer.status);
      expect(answer.location).toBe('https://example.com/hello');
    } finally {
      await db.query(
        `delete from public.aliases where domain_id in
           (select id from public.domains where base_domain_id =
             (select id from public.domains where domain = $1))`,
        [base],
      );
      await db.query(
        `delete from public.domains where base_domain_id =
           (select id from public.domains where domain = $1)`,
        [base],
      );
      await db.query(`delete from public.domains where domain = $1`, [base]);
    }
  }, 20_000);
});
