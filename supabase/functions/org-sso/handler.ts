/**
 * org-sso: an organization's single sign-on (migration 20261122005000), for holders of its `sso`
 * permission on a plan with the `sso` feature (checked in Postgres, as the caller):
 *
 *   POST { action: 'save_provider', organization_id, metadata_url | metadata_xml }
 *        registers the identity provider with Auth (or replaces its metadata) → the setting
 *   POST { action: 'verify_domain', domain_id }
 *        checks TXT _shortlane-sso.<domain> for the claim's token by real DNS; a proved domain
 *        reaches Auth, so its users sign in through the provider → the domain
 *   POST { action: 'sync', organization_id }
 *        (also staff, after vouching for a domain in the kiosk) hands Auth the verified domains
 *   POST { action: 'remove_provider', organization_id }
 *        removes the provider from Auth and the setting (claimed domains stay)
 */
import { callerOf } from '../_shared/caller.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { asCaller, sql } from '../_shared/sql.ts';
import { codedDatabaseError } from '../links/errors.ts';
import { createProvider, deleteProvider, updateProvider } from './auth-admin.ts';
import { checkSsoDomain, nameServerFromEnv } from './dns.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_METADATA_CHARS = 200_000;

interface SsoRow {
  organization_id: string;
  provider_id: string;
  entity_id: string;
  metadata_url: string | null;
  default_role_id: string | null;
  require_sso: boolean;
}

interface DomainRow {
  id: string;
  organization_id: string;
  domain: string;
  verification_token: string;
  status: 'pending' | 'verified';
}

const invalid = (field: string, message: string) =>
  new HttpError(422, message, 'validation_failed', { [field]: [message] });

function readBody(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The body must be JSON', 'invalid_body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object', 'invalid_body');
  }
  return body as Record<string, unknown>;
}

function uuidOf(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw invalid(field, `The ${field} must be a UUID.`);
  }
  return value;
}

/** Postgres decides who may: coded refusals keep their status, code and wording. */
async function asManager(request: Request, organizationId: string, staffMay = false) {
  if (callerOf(request).claims.role !== 'authenticated') {
    throw new HttpError(403, 'Sign in first.', 'forbidden');
  }
  try {
    await asCaller(request, async (tx) => {
      if (staffMay) {
        const [staff] = await tx<{ is_staff: boolean }[]>`select app.is_staff() as is_staff`;
        if (staff?.is_staff) return;
      }
      await tx`select public.assert_sso_manager(${organizationId})`;
    });
  } catch (error) {
    const coded = codedDatabaseError(error);
    if (coded) throw new HttpError(coded.status, coded.detail ?? coded.code, coded.code);
    throw error;
  }
}

async function settingOf(organizationId: string): Promise<SsoRow | undefined> {
  const [row] = await sql()<SsoRow[]>`
    select organization_id, provider_id, entity_id, metadata_url, default_role_id, require_sso
    from public.organization_sso where organization_id = ${organizationId}`;
  return row;
}

async function verifiedDomains(organizationId: string): Promise<string[]> {
  const rows = await sql()<{ domain: string }[]>`
    select domain from public.organization_sso_domains
    where organization_id = ${organizationId} and status = 'verified' order by domain`;
  return rows.map((row) => row.domain);
}

async function syncDomains(organizationId: string): Promise<void> {
  const setting = await settingOf(organizationId);
  if (setting) {
    await updateProvider(setting.provider_id, { domains: await verifiedDomains(organizationId) });
  }
}

async function saveProvider(request: Request, body: Record<string, unknown>) {
  const organizationId = uuidOf(body, 'organization_id');
  await asManager(request, organizationId);
  const url = typeof body.metadata_url === 'string' ? body.metadata_url.trim() : '';
  const xml = typeof body.metadata_xml === 'string' ? body.metadata_xml.trim() : '';
  if ((url === '') === (xml === '')) {
    throw invalid('metadata', 'Give either the metadata URL or the metadata XML.');
  }
  if (url && !/^https?:\/\/\S+$/.test(url)) {
    throw invalid('metadata', 'The metadata URL must be an http(s) address.');
  }
  if (xml.length > MAX_METADATA_CHARS) throw invalid('metadata', 'The metadata XML is too long.');
  const metadata = url ? { metadata_url: url } : { metadata_xml: xml };
  const existing = await settingOf(organizationId);
  const domains = await verifiedDomains(organizationId);
  const provider = existing
    ? await updateProvider(existing.provider_id, { ...metadata, domains })
    : await createProvider({ ...metadata, domains });
  try {
    const [row] = await sql()<SsoRow[]>`
      insert into public.organization_sso (organization_id, provider_id, entity_id, metadata_url)
      values (${organizationId}, ${provider.id}, ${provider.saml.entity_id}, ${url || null})
      on conflict (organization_id) do update
        set provider_id = excluded.provider_id, entity_id = excluded.entity_id,
            metadata_url = excluded.metadata_url
      returning organization_id, provider_id, entity_id, metadata_url, default_role_id,
        require_sso`;
    return json(row);
  } catch (error) {
    // Nothing half-written: a provider Auth holds without our row would be an orphan.
    if (!existing) await deleteProvider(provider.id).catch(() => {});
    throw error;
  }
}

async function verifyDomain(request: Request, body: Record<string, unknown>) {
  const domainId = uuidOf(body, 'domain_id');
  const [claim] = await sql()<DomainRow[]>`
    select id, organization_id, domain, verification_token, status
    from public.organization_sso_domains where id = ${domainId}`;
  if (!claim) throw new HttpError(404, 'Domain not found.', 'not_found');
  await asManager(request, claim.organization_id);
  if (claim.status === 'pending') {
    const outcome = await checkSsoDomain(
      claim.domain,
      claim.verification_token,
      nameServerFromEnv(),
    );
    if (!outcome.passed) throw invalid('domain', outcome.message);
    await sql()`
      update public.organization_sso_domains
      set status = 'verified', verified_by = 'dns', verified_at = now()
      where id = ${domainId} and status = 'pending'`;
    await syncDomains(claim.organization_id);
  }
  const [row] = await sql()<DomainRow[]>`
    select id, organization_id, domain, verification_token, status, verified_by, verified_at
    from public.organization_sso_domains where id = ${domainId}`;
  return json(row);
}

async function removeProvider(request: Request, body: Record<string, unknown>) {
  const organizationId = uuidOf(body, 'organization_id');
  await asManager(request, organizationId);
  const existing = await settingOf(organizationId);
  if (existing) {
    await deleteProvider(existing.provider_id);
    await sql()`delete from public.organization_sso where organization_id = ${organizationId}`;
  }
  return json({ removed: Boolean(existing) });
}

export const orgSso = handler(async (request) => {
  if (request.method !== 'POST') throw new HttpError(405, 'Use POST', 'method_not_allowed');
  const body = readBody(await request.text());
  switch (body.action) {
    case 'save_provider':
      return await saveProvider(request, body);
    case 'verify_domain':
      return await verifyDomain(request, body);
    case 'sync': {
      const organizationId = uuidOf(body, 'organization_id');
      await asManager(request, organizationId, true);
      await syncDomains(organizationId);
      return json({ domains: await verifiedDomains(organizationId) });
    }
    case 'remove_provider':
      return await removeProvider(request, body);
    default:
      throw invalid(
        'action',
        'The action must be save_provider, verify_domain, sync or remove_provider.',
      );
  }
});
