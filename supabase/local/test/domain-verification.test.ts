import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verificationRecordName } from '../../../shared/src/domain-verification.ts';
import { tokenFor } from '../../tests/kiosk/api.ts';
import { createUser, type TestUser, uniqueSuffix } from '../../tests/support/factories.ts';
import { setDnsRecord as setRecord, visit } from './domain-helpers.ts';

/**
 * Branded domain verification end to end: records set in the DNS sandbox, the cron job waking
 * the domain-verify function through pg_net, real DNS queries from Deno to the sandbox, and the
 * verified domain then serving its links through the gateway. Each domain here is this file's.
 */

const env = inject('stackEnv');
const db = new pg.Client({ connectionString: env.DB_URL });
const serviceHeaders = {
  Authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
  apikey: env.SUPABASE_SERVICE_ROLE_KEY,
  'content-type': 'application/json',
};
const REDIRECT_HOST = 'redirect.shortlane.localhost';
let owner: TestUser;
const domains: string[] = [];

interface Domain {
  id: string;
  domain: string;
  token: string;
}

async function addDomain(): Promise<Domain> {
  const domain = `bd${uniqueSuffix()}.example`;
  const { rows } = await db.query<{ id: string; verification_token: string }>(
    `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
     returning id, verification_token`,
    [domain, owner.personalAccountId],
  );
  const row = rows[0];
  if (!row) throw new Error('no domain');
  domains.push(row.id);
  return { id: row.id, domain, token: row.verification_token };
}

async function state(id: string) {
  const { rows } = await db.query<{
    verification_status: string;
    verification_problem: string | null;
    verification_checked_at: Date | null;
    verified_at: Date | null;
    verification_deadline: Date | null;
  }>(
    `select verification_status, verification_problem, verification_checked_at, verified_at,
       verification_deadline
     from public.domains where id = $1`,
    [id],
  );
  return rows[0];
}

async function checkNow(id: string, headers: Record<string, string> = serviceHeaders) {
  return fetch(`${env.SUPABASE_URL}/functions/v1/domain-verify`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domain_id: id }),
  });
}

async function addLink(domain: Domain, alias: string, url: string) {
  await db.query(
    `with long_url as (
       insert into public.long_urls (account_id, url) values ($1, $2) returning id
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, status, created_by)
     select l.id, $1, $3, $4, 'active', $5 from long_url l`,
    [owner.personalAccountId, url, domain.id, alias, owner.id],
  );
}

beforeAll(async () => {
  await db.connect();
  owner = await createUser(db);
});

afterAll(async () => {
  await db.query(`delete from public.aliases where domain_id = any($1)`, [domains]);
  await db.query(`delete from public.domains where id = any($1)`, [domains]);
  await db.query(`delete from auth.users where id = $1`, [owner.id]);
  await db.end();
});

describe('branded domain verification', () => {
  it('verifies in the background once the TXT and CNAME are set, then redirects on the new host', async () => {
    const domain = await addDomain();
    await addLink(domain, 'launch', 'https://example.com/launch');
    expect(await state(domain.id)).toMatchObject({
      verification_status: 'pending',
      verification_deadline: expect.any(Date),
    });
    // Not verified yet: the gateway hands the host to r, which does not serve it.
    expect((await visit(domain.domain, '/launch')).status).toBe(404);

    await setRecord(domain.domain, verificationRecordName(domain.domain), 'TXT', domain.token);
    await setRecord(domain.domain, '@', 'CNAME', REDIRECT_HOST);

    // The cron job (every 5 s) wakes the verifier; nothing here calls it.
    const deadline = Date.now() + 25_000;
    let current = await state(domain.id);
    while (current?.verification_status !== 'verified' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = await state(domain.id);
    }
    expect(current).toMatchObject({
      verification_status: 'verified',
      verification_problem: null,
      verified_at: expect.any(Date),
    });

    let answer = await visit(domain.domain, '/launch');
    // The gateway's host list and r's cache learn of the change by notification.
    for (let tries = 0; answer.status === 404 && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await visit(domain.domain, '/launch');
    }
    expect([301, 302]).toContain(answer.status);
    expect(answer.location).toBe('https://example.com/launch');
  }, 40_000);

  it('keeps a domain whose TXT is wrong pending with the reason, and fails it at the deadline', async () => {
    const domain = await addDomain();
    await setRecord(domain.domain, verificationRecordName(domain.domain), 'TXT', 'not-the-token');
    await setRecord(domain.domain, '@', 'CNAME', REDIRECT_HOST);

    const first = await checkNow(domain.id);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      id: domain.id,
      verification_status: 'pending',
      verification_problem: 'txt_mismatch',
    });

    await db.query(
      `update public.domains set verification_deadline = now() - interval '1 second'
       where id = $1`,
      [domain.id],
    );
    const last = await checkNow(domain.id);
    expect(await last.json()).toMatchObject({
      verification_status: 'failed',
      verification_problem: 'txt_mismatch',
      verification_next_check_at: null,
    });
    expect((await visit(domain.domain, '/')).status).toBe(404);
  });

  it('names what is missing: no TXT, then a host that points elsewhere', async () => {
    const domain = await addDomain();
    const missing = await checkNow(domain.id);
    expect(await missing.json()).toMatchObject({
      verification_status: 'pending',
      verification_problem: 'txt_missing',
    });
    await setRecord(domain.domain, verificationRecordName(domain.domain), 'TXT', domain.token);
    await setRecord(domain.domain, '@', 'A', '192.0.2.44');
    const elsewhere = await checkNow(domain.id);
    expect(await elsewhere.json()).toMatchObject({
      verification_status: 'pending',
      verification_problem: 'host_not_pointing',
    });
    // An A record on our address passes where a CNAME cannot be set (a zone apex).
    await setRecord(domain.domain, '@', 'A', '127.0.0.1');
    expect(await (await checkNow(domain.id)).json()).toMatchObject({
      verification_status: 'verified',
    });
  });

  it('checks a domain now only for its managers and the service role', async () => {
    const domain = await addDomain();
    // Out of the background verifier's way: only the calls below may check it.
    await db.query(
      `update public.domains set verification_next_check_at = now() + interval '1 hour'
       where id = $1`,
      [domain.id],
    );
    await setRecord(domain.domain, verificationRecordName(domain.domain), 'TXT', domain.token);
    const asUser = async (userId: string) => ({
      Authorization: `Bearer ${await tokenFor(userId)}`,
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
    });
    const stranger = await createUser(db);
    try {
      expect((await checkNow(domain.id, await asUser(stranger.id))).status).toBe(404);
    } finally {
      await db.query(`delete from auth.users where id = $1`, [stranger.id]);
    }
    expect((await state(domain.id))?.verification_checked_at).toBeNull();
    // The owner of a personal workspace manages its domains.
    const mine = await checkNow(domain.id, await asUser(owner.id));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({
      id: domain.id,
      verification_status: 'pending',
      verification_problem: 'host_not_pointing',
    });

    const anonymous = await checkNow(domain.id, {
      Authorization: `Bearer ${env.SUPABASE_ANON_KEY}`,
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
    });
    expect(anonymous.status).toBe(404);
    const sweep = await fetch(`${env.SUPABASE_URL}/functions/v1/domain-verify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.SUPABASE_ANON_KEY}` },
    });
    expect(sweep.status).toBe(403);
  });
});
