import { randomUUID } from 'node:crypto';
import type { Db } from '../db.ts';

/**
 * auth.sso_providers with their saml_providers row and sso_domains, and the JSON GoTrue answers
 * for them (models.SSOProvider).
 */

export interface SamlAttribute {
  name?: string;
  names?: string[];
  default?: unknown;
  array?: boolean;
}

export interface AttributeMapping {
  keys?: Record<string, SamlAttribute>;
}

export interface SsoProvider {
  id: string;
  resource_id: string | null;
  disabled: boolean | null;
  created_at: Date;
  updated_at: Date;
  entity_id: string;
  metadata_xml: string;
  metadata_url: string | null;
  attribute_mapping: AttributeMapping | null;
  name_id_format: string | null;
  domains: string[];
}

const SELECT = `
  select p.id, p.resource_id, p.disabled, p.created_at, p.updated_at,
         s.entity_id, s.metadata_xml, s.metadata_url, s.attribute_mapping, s.name_id_format,
         coalesce((select array_agg(d.domain order by d.created_at, d.domain)
                     from auth.sso_domains d where d.sso_provider_id = p.id), '{}') as domains
    from auth.sso_providers p
    join auth.saml_providers s on s.sso_provider_id = p.id`;

export async function findProviderById(db: Db, id: string): Promise<SsoProvider | undefined> {
  const { rows } = await db.query<SsoProvider>(`${SELECT} where p.id = $1`, [id]);
  return rows[0];
}

export async function findProviderByDomain(
  db: Db,
  domain: string,
): Promise<SsoProvider | undefined> {
  const { rows } = await db.query<SsoProvider>(
    `${SELECT} where p.id = (select sso_provider_id from auth.sso_domains
                               where lower(domain) = lower($1))`,
    [domain],
  );
  return rows[0];
}

export async function findProviderByEntityId(
  db: Db,
  entityId: string,
): Promise<SsoProvider | undefined> {
  const { rows } = await db.query<SsoProvider>(`${SELECT} where s.entity_id = $1`, [entityId]);
  return rows[0];
}

export async function listProviders(db: Db): Promise<SsoProvider[]> {
  const { rows } = await db.query<SsoProvider>(`${SELECT} order by p.created_at, p.id`);
  return rows;
}

export interface NewProvider {
  entityId: string;
  metadataXml: string;
  metadataUrl: string | null;
  attributeMapping: AttributeMapping;
  nameIdFormat: string | null;
  domains: string[];
}

export async function insertProvider(db: Db, provider: NewProvider): Promise<string> {
  const id = randomUUID();
  await db.query(
    'insert into auth.sso_providers (id, created_at, updated_at) values ($1, now(), now())',
    [id],
  );
  await db.query(
    `insert into auth.saml_providers (id, sso_provider_id, entity_id, metadata_xml, metadata_url,
       attribute_mapping, name_id_format, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())`,
    [
      randomUUID(),
      id,
      provider.entityId,
      provider.metadataXml,
      provider.metadataUrl,
      JSON.stringify(provider.attributeMapping),
      provider.nameIdFormat,
    ],
  );
  await addDomains(db, id, provider.domains);
  return id;
}

export async function addDomains(db: Db, providerId: string, domains: string[]): Promise<void> {
  for (const domain of domains) {
    await db.query(
      `insert into auth.sso_domains (id, sso_provider_id, domain, created_at, updated_at)
       values ($1, $2, $3, now(), now())`,
      [randomUUID(), providerId, domain],
    );
  }
}

export async function removeDomains(db: Db, providerId: string, domains: string[]): Promise<void> {
  await db.query('delete from auth.sso_domains where sso_provider_id = $1 and domain = any ($2)', [
    providerId,
    domains,
  ]);
}

export async function updateSamlProvider(
  db: Db,
  providerId: string,
  changes: {
    metadataXml: string;
    metadataUrl: string | null;
    attributeMapping: AttributeMapping;
    nameIdFormat: string | null;
  },
): Promise<void> {
  await db.query(
    `update auth.saml_providers
        set metadata_xml = $2, metadata_url = $3, attribute_mapping = $4, name_id_format = $5,
            updated_at = now()
      where sso_provider_id = $1`,
    [
      providerId,
      changes.metadataXml,
      changes.metadataUrl,
      JSON.stringify(changes.attributeMapping),
      changes.nameIdFormat,
    ],
  );
  await db.query('update auth.sso_providers set updated_at = now() where id = $1', [providerId]);
}

export async function deleteProvider(db: Db, providerId: string): Promise<void> {
  await db.query('delete from auth.sso_providers where id = $1', [providerId]);
}

/** GoTrue's JSON for a provider; `withMetadata` false for lists (the XML is left out there). */
export function providerJson(provider: SsoProvider, withMetadata = true): Record<string, unknown> {
  const saml: Record<string, unknown> = { entity_id: provider.entity_id };
  if (withMetadata && provider.metadata_xml) saml.metadata_xml = provider.metadata_xml;
  if (provider.metadata_url) saml.metadata_url = provider.metadata_url;
  saml.attribute_mapping = provider.attribute_mapping ?? {};
  if (provider.name_id_format) saml.name_id_format = provider.name_id_format;
  const body: Record<string, unknown> = { id: provider.id };
  if (provider.resource_id) body.resource_id = provider.resource_id;
  body.disabled = provider.disabled;
  body.saml = saml;
  body.domains = provider.domains.map((domain) => ({ domain }));
  body.created_at = provider.created_at.toISOString();
  body.updated_at = provider.updated_at.toISOString();
  return body;
}
