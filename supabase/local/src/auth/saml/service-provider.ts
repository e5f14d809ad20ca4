import { randomBytes } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { loadOrCreateSigningPair, type SigningPair } from '../../signing-keys.ts';
import { badRequest } from '../errors.ts';
import type { AuthSettings } from '../settings.ts';
import type { IdpMetadata } from './metadata.ts';

/**
 * This Auth as a SAML service provider, on @node-saml/node-saml, configured as GoTrue configures
 * crewjam/saml: entity ID <external URL>/sso/saml/metadata, ACS <external URL>/sso/saml/acs,
 * signed AuthnRequests asking for a persistent NameID, and responses accepted when the response
 * or its assertion carries a valid signature of the IdP, for this audience, within its time
 * window (180 s of clock skew, crewjam's MaxClockSkew), answering the request we sent.
 */

export const PERSISTENT_NAME_ID = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
export const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const NAME_ID_FORMATS = [
  PERSISTENT_NAME_ID,
  EMAIL_NAME_ID,
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
];
const MAX_CLOCK_SKEW_MS = 180_000;

export interface ServiceProviderUrls {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

export function serviceProviderUrls(settings: AuthSettings): ServiceProviderUrls {
  const base = `${settings.externalUrl.replace(/\/$/, '')}/sso/saml`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

let keys: Promise<SigningPair> | undefined;
let keysDir: string | undefined;

/** The service provider's key pair, made at first use and kept under the stack's state. */
export function serviceProviderKeys(settings: AuthSettings): Promise<SigningPair> {
  if (!keys || keysDir !== settings.saml.keyDir) {
    keysDir = settings.saml.keyDir;
    keys = loadOrCreateSigningPair(keysDir, 'sp', 'Shortlane Auth (SAML service provider)');
  }
  return keys;
}

/** node-saml checks InResponseTo against a cache; ours holds the one request of a relay state. */
function oneRequestCache(requestId: string | null): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
}

interface SpOptions {
  settings: AuthSettings;
  idp: IdpMetadata;
  pair: SigningPair;
  nameIdFormat?: string | null;
  /** The AuthnRequest ID the response must answer; null for an IdP-initiated response. */
  requestId?: string | null;
}

function samlFor({ settings, idp, pair, nameIdFormat, requestId = null }: SpOptions): SAML {
  const urls = serviceProviderUrls(settings);
  return new SAML({
    issuer: urls.entityId,
    callbackUrl: urls.acsUrl,
    entryPoint: idp.ssoRedirectUrl ?? undefined,
    idpIssuer: idp.entityId,
    idpCert: idp.signingCertificates.length > 0 ? idp.signingCertificates : ['-'],
    privateKey: pair.privateKey,
    publicCert: pair.certificate,
    signatureAlgorithm: 'sha256',
    identifierFormat: nameIdFormat ?? PERSISTENT_NAME_ID,
    audience: urls.entityId,
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: MAX_CLOCK_SKEW_MS,
    disableRequestedAuthnContext: true,
    validateInResponseTo: requestId ? ValidateInResponseTo.always : ValidateInResponseTo.never,
    cacheProvider: oneRequestCache(requestId),
    generateUniqueId: () => `id-${randomBytes(20).toString('hex')}`,
  });
}

export interface AuthnRequest {
  id: string;
  url: string;
}

/** A signed AuthnRequest for the HTTP-Redirect binding, carrying the relay state. */
export async function authnRequest(
  options: SpOptions & { relayState: string },
): Promise<AuthnRequest> {
  const id = `id-${randomBytes(20).toString('hex')}`;
  const saml = samlFor(options);
  saml.options.generateUniqueId = () => id;
  const url = await saml.getAuthorizeUrlAsync(options.relayState, undefined, {});
  return { id, url };
}

export function serviceProviderMetadata(settings: AuthSettings, pair: SigningPair): string {
  const urls = serviceProviderUrls(settings);
  const saml = new SAML({
    issuer: urls.entityId,
    callbackUrl: urls.acsUrl,
    idpCert: '-',
    privateKey: pair.privateKey,
    publicCert: pair.certificate,
    identifierFormat: PERSISTENT_NAME_ID,
    wantAssertionsSigned: true,
  });
  return saml.generateServiceProviderMetadata(null, pair.certificate);
}

export interface ValidAssertion {
  profile: Profile;
  assertionId: string;
  issuer: string;
  /** When the assertion stops being usable (its conditions' NotOnOrAfter). */
  notOnOrAfter: Date | null;
}

export const assertionNotValid = () =>
  badRequest('validation_failed', 'SAML Assertion is not valid');

/**
 * Validates a base64 SAMLResponse: node-saml checks the signature, audience, time window and
 * InResponseTo; crewjam also holds the response's Destination and the subject confirmation's
 * Recipient to our ACS, which node-saml leaves to its caller, so they are checked here.
 */
export async function validateResponse(
  options: SpOptions,
  samlResponse: string,
): Promise<ValidAssertion> {
  const urls = serviceProviderUrls(options.settings);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(options).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    throw Object.assign(assertionNotValid(), { cause: error });
  }
  if (!profile) throw assertionNotValid();
  const responseXml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const response = new DOMParser().parseFromString(responseXml, 'text/xml').documentElement;
  const destination = response?.getAttribute('Destination') ?? '';
  if (destination !== '' && destination !== urls.acsUrl) {
    throw Object.assign(assertionNotValid(), { cause: new Error('wrong Destination') });
  }
  const assertionXml = profile.getAssertionXml?.() ?? '';
  const assertion = new DOMParser().parseFromString(assertionXml, 'text/xml').documentElement;
  const confirmations = assertion
    ? Array.from(assertion.getElementsByTagNameNS('*', 'SubjectConfirmationData'))
    : [];
  if (
    confirmations.length === 0 ||
    confirmations.some((data) => (data.getAttribute('Recipient') ?? '') !== urls.acsUrl)
  ) {
    throw Object.assign(assertionNotValid(), { cause: new Error('wrong Recipient') });
  }
  const conditions = assertion?.getElementsByTagNameNS('*', 'Conditions')[0];
  const notOnOrAfter = conditions?.getAttribute('NotOnOrAfter');
  return {
    profile,
    assertionId: assertion?.getAttribute('ID') ?? '',
    issuer: profile.issuer,
    notOnOrAfter: notOnOrAfter ? new Date(notOnOrAfter) : null,
  };
}

/**
 * Assertion IDs already consumed, until their assertion expires: a captured response cannot be
 * posted again (for SP-initiated sign-ins the consumed relay state refuses it first).
 */
export class AssertionReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records the ID; false when it was already used. */
  claim(id: string, expiresAt: Date | null): boolean {
    const now = this.now();
    for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
    if (this.seen.has(id)) return false;
    this.seen.set(id, (expiresAt?.getTime() ?? now) + MAX_CLOCK_SKEW_MS);
    return true;
  }
}
