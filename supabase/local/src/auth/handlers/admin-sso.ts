import { json } from '../../http.ts';
import { requireAdmin } from '../authenticate.ts';
import type { AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { AuthApiError, badRequest, notFound, unprocessable } from '../errors.ts';
import { decodeParams, isUuid, readJsonBody } from '../params.ts';
import type { Router } from '../router.ts';
import { parseIdpMetadata, type IdpMetadata } from '../saml/metadata.ts';
import {
  addDomains,
  deleteProvider,
  findProviderByDomain,
  findProviderByEntityId,
  findProviderById,
  insertProvider,
  listProviders,
  providerJson,
  removeDomains,
  updateSamlProvider,
  type AttributeMapping,
  type SsoProvider,
} from '../saml/providers.ts';
import { NAME_ID_FORMATS } from '../saml/service-provider.ts';

/** /admin/sso/providers: GoTrue's SSO provider administration (ssoadmin.go), service_role only. */

interface ProviderParams {
  type: string;
  metadataUrl: string;
  metadataXml: string;
  /** Undefined when the body leaves domains out (an update then keeps them). */
  domains: string[] | undefined;
  attributeMapping: AttributeMapping;
  nameIdFormat: string;
}

const METADATA_FETCH_TIMEOUT_MS = 10_000;

function goTypeError(field: string, actual: string, goType: string): AuthApiError {
  return badRequest(
    'bad_json',
    `Could not parse request body as JSON: json: cannot unmarshal ${actual} into Go struct field CreateSSOProviderParams.${field} of type ${goType}`,
  );
}

const jsonType = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;

async function readProviderParams(request: Request): Promise<ProviderParams> {
  const body = await readJsonBody(request);
  const params = decodeParams(body, {
    type: 'string',
    metadata_url: 'string',
    metadata_xml: 'string',
    name_id_format: 'string',
  });
  const source = body as Record<string, unknown>;
  let domains: string[] | undefined;
  if (source.domains !== undefined && source.domains !== null) {
    if (!Array.isArray(source.domains)) {
      throw goTypeError('domains', jsonType(source.domains), '[]string');
    }
    const wrong = source.domains.find((domain) => typeof domain !== 'string');
    if (wrong !== undefined) throw goTypeError('domains', jsonType(wrong), 'string');
    domains = (source.domains as string[]).map((domain) => domain.trim().toLowerCase());
  }
  const mapping = source.attribute_mapping;
  if (mapping !== undefined && mapping !== null && jsonType(mapping) !== 'object') {
    throw goTypeError('attribute_mapping', jsonType(mapping), 'models.SAMLAttributeMapping');
  }
  return {
    type: params.type ?? '',
    metadataUrl: params.metadata_url ?? '',
    metadataXml: params.metadata_xml ?? '',
    domains,
    attributeMapping: (mapping as AttributeMapping | undefined) ?? {},
    nameIdFormat: params.name_id_format ?? '',
  };
}

/**
 * GoTrue accepts only https metadata URLs. The local stack also takes http on this machine
 * (localhost, 127.0.0.0/8, ::1), where its sandbox identity provider serves its metadata.
 */
function isLocalHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' ||
      url.hostname.endsWith('.localhost') ||
      /^127\./.test(url.hostname) ||
      url.hostname === '[::1]')
  );
}

function validate(params: ProviderParams, forUpdate: boolean): void {
  if (!forUpdate && params.type !== 'saml') {
    throw badRequest('validation_failed', "Only 'saml' supported for SSO provider type");
  }
  if (params.metadataUrl && params.metadataXml) {
    throw badRequest(
      'validation_failed',
      'Only one of metadata_xml or metadata_url needs to be set',
    );
  }
  if (!forUpdate && !params.metadataUrl && !params.metadataXml) {
    throw badRequest('validation_failed', 'Either metadata_xml or metadata_url must be set');
  }
  if (params.metadataUrl) {
    let url: URL;
    try {
      url = new URL(params.metadataUrl);
    } catch {
      throw badRequest('validation_failed', 'metadata_url is not a valid URL');
    }
    if (url.protocol !== 'https:' && !isLocalHttp(url)) {
      throw badRequest('validation_failed', 'metadata_url is not a HTTPS URL');
    }
  }
  if (params.nameIdFormat && !NAME_ID_FORMATS.includes(params.nameIdFormat)) {
    throw badRequest(
      'validation_failed',
      `name_id_format must be unspecified or one of ${NAME_ID_FORMATS.join(', ')}`,
    );
  }
}

async function fetchMetadata(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/xml;charset=UTF-8', 'accept-charset': 'UTF-8' },
      redirect: 'manual',
      signal: AbortSignal.timeout(METADATA_FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    throw badRequest(
      'saml_metadata_fetch_failed',
      `Error fetching SAML Metadata from URL '${url}': ${(error as Error).message}`,
    );
  }
  if (response.status !== 200) {
    throw badRequest(
      'saml_metadata_fetch_failed',
      `HTTP ${response.status} error fetching SAML Metadata from URL '${url}'`,
    );
  }
  return response.text();
}

async function metadataOf(params: ProviderParams): Promise<{ xml: string; idp: IdpMetadata }> {
  const xml = params.metadataXml || (await fetchMetadata(params.metadataUrl));
  return { xml, idp: parseIdpMetadata(xml) };
}

export function adminSsoRoutes(router: Router, context: AuthContext): void {
  const { pool } = context;

  async function loadProvider(id: string | undefined): Promise<SsoProvider> {
    const provider = id && isUuid(id) ? await findProviderById(pool, id) : undefined;
    if (!provider) throw notFound('sso_provider_not_found', 'SSO Identity Provider not found');
    return provider;
  }

  async function assertDomainsFree(domains: string[], ownerId: string | null): Promise<void> {
    for (const domain of domains) {
      const existing = await findProviderByDomain(pool, domain);
      if (existing && existing.id !== ownerId) {
        throw badRequest(
          'sso_domain_already_exists',
          ownerId
            ? `SSO domain '${domain}' already assigned to another provider (${existing.id})`
            : `SSO Domain '${domain}' is already assigned to an SSO identity provider (${existing.id})`,
        );
      }
    }
  }

  router.on('GET', '/admin/sso/providers', async ({ request }) => {
    await requireAdmin(context, request);
    const providers = await listProviders(pool);
    return json({ items: providers.map((provider) => providerJson(provider, false)) });
  });

  router.on('POST', '/admin/sso/providers', async ({ request }) => {
    await requireAdmin(context, request);
    const params = await readProviderParams(request);
    validate(params, false);
    const { xml, idp } = await metadataOf(params);
    if (await findProviderByEntityId(pool, idp.entityId)) {
      throw unprocessable(
        'saml_idp_already_exists',
        `SAML Identity Provider with this EntityID (${idp.entityId}) already exists`,
      );
    }
    const domains = [...new Set(params.domains ?? [])];
    await assertDomainsFree(domains, null);
    const id = await transaction(pool, (tx) =>
      insertProvider(tx, {
        entityId: idp.entityId,
        metadataXml: xml,
        metadataUrl: params.metadataUrl || null,
        attributeMapping: params.attributeMapping,
        nameIdFormat: params.nameIdFormat || null,
        domains,
      }),
    );
    return json(providerJson((await findProviderById(pool, id))!), 201);
  });

  router.on('GET', '/admin/sso/providers/:id', async ({ request, params }) => {
    await requireAdmin(context, request);
    return json(providerJson(await loadProvider(params.id)));
  });

  router.on('PUT', '/admin/sso/providers/:id', async ({ request, params: route }) => {
    await requireAdmin(context, request);
    const provider = await loadProvider(route.id);
    const params = await readProviderParams(request);
    validate(params, true);
    let metadataXml = provider.metadata_xml;
    let metadataUrl = provider.metadata_url;
    if (params.metadataXml || params.metadataUrl) {
      const { xml, idp } = await metadataOf(params);
      if (idp.entityId !== provider.entity_id) {
        throw badRequest(
          'saml_entity_id_mismatch',
          `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${provider.entity_id}' but got '${idp.entityId}'`,
        );
      }
      metadataXml = xml;
      if (params.metadataUrl) metadataUrl = params.metadataUrl;
    }
    const domains = params.domains ? [...new Set(params.domains)] : undefined;
    if (domains) await assertDomainsFree(domains, provider.id);
    try {
      await transaction(pool, async (tx) => {
        await updateSamlProvider(tx, provider.id, {
          metadataXml,
          metadataUrl,
          // GoTrue compares the mapping with the stored one and writes what the body says.
          attributeMapping: params.attributeMapping,
          nameIdFormat: params.nameIdFormat || null,
        });
        if (domains) {
          await removeDomains(
            tx,
            provider.id,
            provider.domains.filter((domain) => !domains.includes(domain)),
          );
          await addDomains(
            tx,
            provider.id,
            domains.filter((domain) => !provider.domains.includes(domain)),
          );
        }
      });
    } catch (error) {
      if (error instanceof AuthApiError) throw error;
      throw unprocessable(
        'conflict',
        'Updating SSO provider failed, likely due to a conflict. Try again?',
      );
    }
    return json(providerJson((await findProviderById(pool, provider.id))!));
  });

  router.on('DELETE', '/admin/sso/providers/:id', async ({ request, params }) => {
    await requireAdmin(context, request);
    const provider = await loadProvider(params.id);
    await transaction(pool, (tx) => deleteProvider(tx, provider.id));
    return json(providerJson(provider));
  });
}
