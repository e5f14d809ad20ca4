import { randomUUID } from 'node:crypto';
import { generate } from 'selfsigned';
import { buildSamlResponse, type AssertionInput } from '../src/saml-idp/response.ts';
import { certificateBody, type SigningPair } from '../src/signing-keys.ts';
import { env } from './auth-helpers.ts';

/** Test identity providers registered through Auth's admin API, and what they post to the ACS. */

export const ACS_URL = `${env.SUPABASE_URL}/auth/v1/sso/saml/acs`;
export const SP_ENTITY_ID = `${env.SUPABASE_URL}/auth/v1/sso/saml/metadata`;

export async function newSigningPair(): Promise<SigningPair> {
  const made = await generate([{ name: 'commonName', value: 'test idp' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { privateKey: made.private, certificate: made.cert };
}

export function idpMetadata(entityId: string, pair: SigningPair): string {
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">` +
    `<ds:X509Data><ds:X509Certificate>${certificateBody(pair.certificate)}</ds:X509Certificate>` +
    `</ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.test/sso"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}

export const adminHeaders = {
  apikey: env.SUPABASE_SERVICE_ROLE_KEY,
  authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
  'content-type': 'application/json',
};

export async function adminSso(
  method: string,
  path = '',
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/sso/providers${path}`, {
    method,
    headers: adminHeaders,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export interface TestIdp {
  id: string;
  entityId: string;
  domain: string;
  pair: SigningPair;
}

/** A fresh IdP with its own key and domain, registered with Auth. */
export async function registerTestIdp(): Promise<TestIdp> {
  const label = randomUUID().slice(0, 8);
  const entityId = `https://idp-${label}.example.test/metadata`;
  const domain = `sso-${label}.example.test`;
  const pair = await newSigningPair();
  const created = await adminSso('POST', '', {
    type: 'saml',
    metadata_xml: idpMetadata(entityId, pair),
    domains: [domain],
  });
  if (created.status !== 201) throw new Error(`register IdP: ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id), entityId, domain, pair };
}

/** The AuthnRequest ID and relay state inside the IdP URL that POST /sso answered. */
export async function requestOf(url: string): Promise<{ id: string; relayState: string }> {
  const { inflateRawSync } = await import('node:zlib');
  const parsed = new URL(url);
  const xml = inflateRawSync(
    Buffer.from(parsed.searchParams.get('SAMLRequest') ?? '', 'base64'),
  ).toString('utf8');
  const id = xml.match(/\sID="([^"]+)"/)?.[1] ?? '';
  return { id, relayState: parsed.searchParams.get('RelayState') ?? '' };
}

export function responseFor(
  idp: TestIdp,
  overrides: Partial<AssertionInput> & { email: string },
): string {
  return buildSamlResponse({
    issuer: idp.entityId,
    audience: SP_ENTITY_ID,
    acsUrl: ACS_URL,
    nameId: `subject-${overrides.email}`,
    privateKey: idp.pair.privateKey,
    certificate: idp.pair.certificate,
    ...overrides,
  });
}

/** Posts to the ACS as the IdP's auto-submitting form does; answers where it redirects. */
export async function postToAcs(samlResponse: string, relayState: string): Promise<URL> {
  const response = await fetch(ACS_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }),
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  if (!location || response.status < 300 || response.status >= 400) {
    throw new Error(`ACS answered ${response.status} without a redirect`);
  }
  return new URL(location);
}

/** error, error_code and error_description of a refused sign-in's redirect. */
export const refusal = (target: URL) => ({
  error: target.searchParams.get('error'),
  error_code: target.searchParams.get('error_code'),
  error_description: target.searchParams.get('error_description'),
});

export const fragmentOf = (target: URL) => new URLSearchParams(target.hash.slice(1));
