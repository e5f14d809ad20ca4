/**
 * domain-verify: checks pending branded and organization domains by real DNS queries
 * (migration 20261122004200 describes the states).
 *
 *   POST {}            the service role (cron job domain-verify, via app.kick_domain_verification):
 *                      checks the domains that are due, at most one batch → { checked, verified }
 *   POST { domain_id } a manager of that domain (or the service role): checks it now, if it is
 *                      pending → its verification state, and the target (CNAME host and A/AAAA
 *                      addresses) the domain must point at
 */
import { callerOf } from '../_shared/caller.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { requireEnv } from '../_shared/env.ts';
import { asCaller, sql } from '../_shared/sql.ts';
import {
  checkDomain,
  type CheckOutcome,
  type VerifierConfig,
  verifierConfigFromEnv,
} from './dns.ts';

/** Domains checked at once within a run. */
const CONCURRENCY = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Claimed {
  id: string;
  domain: string;
  verification_token: string;
}

export interface VerificationState {
  id: string;
  domain: string;
  verification_status: 'pending' | 'verified' | 'failed';
  verification_problem: string | null;
  verification_checked_at: string | null;
  verification_next_check_at: string | null;
  verification_deadline: string | null;
  verified_at: string | null;
}

async function readDomainId(request: Request): Promise<string | undefined> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The body must be JSON', 'invalid_body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object', 'invalid_body');
  }
  const id = (body as Record<string, unknown>).domain_id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new HttpError(422, 'The domain_id must be a UUID.', 'validation_failed', {
      domain_id: ['The domain_id must be a UUID.'],
    });
  }
  return id;
}

async function checkAndRecord(claimed: Claimed, config: VerifierConfig): Promise<string> {
  let outcome: CheckOutcome;
  try {
    outcome = await checkDomain(claimed.domain, claimed.verification_token, config);
  } catch (error) {
    console.error(`domain-verify: ${claimed.domain}:`, error);
    outcome = { passed: false, problem: 'dns_error' };
  }
  const [row] = await sql()<{ status: string | null }[]>`
    select app.record_domain_check(${claimed.id}, ${outcome.passed},
      ${outcome.passed ? null : outcome.problem}) as status`;
  return row?.status ?? 'gone';
}

async function readState(id: string): Promise<VerificationState | undefined> {
  const [row] = await sql()<VerificationState[]>`
    select id, domain::text as domain, verification_status, verification_problem,
      verification_checked_at, verification_next_check_at, verification_deadline, verified_at
    from public.domains where id = ${id}`;
  return row;
}

/** Whether the caller manages the domain (the permission that lets them edit it). */
async function callerManages(request: Request, id: string): Promise<boolean> {
  const rows = await asCaller(
    request,
    (tx) =>
      tx`
    select 1 from public.domains d
    where d.id = ${id} and not d.is_deleted
      and d.account_id in (select app.accounts_with_permission('domains'))`,
  );
  return rows.length > 0;
}

export const verifyDomains = handler(async (request) => {
  if (request.method !== 'POST') {
    throw new HttpError(405, 'Use POST', 'method_not_allowed');
  }
  const isService =
    request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ===
    requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  const domainId = await readDomainId(request);
  const config = verifierConfigFromEnv();

  if (domainId === undefined) {
    if (!isService) {
      throw new HttpError(403, 'Only the service role runs the verifier', 'forbidden');
    }
    const [settings] = await sql()<{ batch_size: number }[]>`
      select batch_size from app.domain_verification_settings`;
    const claimed = await sql()<Claimed[]>`
      select id, domain, verification_token from app.claim_domain_checks(${
        settings?.batch_size ?? 50
      })`;
    const statuses: string[] = [];
    for (let start = 0; start < claimed.length; start += CONCURRENCY) {
      const slice = claimed.slice(start, start + CONCURRENCY);
      statuses.push(...(await Promise.all(slice.map((domain) => checkAndRecord(domain, config)))));
    }
    return json({
      checked: claimed.length,
      verified: statuses.filter((status) => status === 'verified').length,
    });
  }

  if (!isService) {
    // Only a signed-in user can hold the `domains` permission; anyone else learns nothing.
    const { claims } = callerOf(request);
    if (claims.role !== 'authenticated' || !(await callerManages(request, domainId))) {
      throw new HttpError(404, 'Domain not found.', 'domain_not_found');
    }
  }
  const [claimed] = await sql()<Claimed[]>`
    select id, domain, verification_token from app.claim_domain_checks(1, ${domainId})`;
  if (claimed) await checkAndRecord(claimed, config);
  const state = await readState(domainId);
  if (!state) throw new HttpError(404, 'Domain not found.', 'domain_not_found');
  // Where the domain must point, as the portal shows it beside the TXT record.
  return json({ ...state, target: { cname: config.cnameTarget, addresses: config.addresses } });
});
