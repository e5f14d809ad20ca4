import { DOMParser } from '@xmldom/xmldom';
import { badRequest } from '../errors.ts';

/**
 * An identity provider's SAML metadata, read the way GoTrue reads it (samlsp.ParseMetadata, then
 * parseSAMLMetadata's checks): one EntityDescriptor with an EntityID and exactly one
 * IDPSSODescriptor; its single sign-on endpoints and signing certificates are what the service
 * provider needs.
 */
export interface IdpMetadata {
  entityId: string;
  /** Where AuthnRequests go (the HTTP-Redirect binding GoTrue uses). */
  ssoRedirectUrl: string | null;
  /** PEM certificates the IdP signs with (KeyDescriptor use="signing" or unspecified). */
  signingCertificates: string[];
  validUntil: Date | null;
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(ns, name));

function toPem(body: string): string {
  const compact = body.replace(/\s+/g, '');
  const lines = compact.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function invalid(reason: string): never {
  throw badRequest('validation_failed', `SAML Metadata could not be parsed: ${reason}`);
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  if (xml.includes('\uFFFD')) {
    throw badRequest(
      'validation_failed',
      'SAML Metadata XML contains invalid UTF-8 characters, which are not supported at this time',
    );
  }
  let root: Element | null = null;
  const problems: string[] = [];
  try {
    const doc = new DOMParser({
      errorHandler: {
        error: (message: string) => problems.push(message),
        fatalError: (message: string) => problems.push(message),
      },
    }).parseFromString(xml, 'text/xml');
    root = doc.documentElement;
  } catch (error) {
    invalid((error as Error).message);
  }
  if (problems.length > 0 || !root) invalid(problems[0] ?? 'no document');
  let entity: Element | undefined;
  if (root.namespaceURI === MD && root.localName === 'EntityDescriptor') entity = root;
  else if (root.namespaceURI === MD && root.localName === 'EntitiesDescriptor') {
    entity = children(root, MD, 'EntityDescriptor').find(
      (candidate) => children(candidate, MD, 'IDPSSODescriptor').length > 0,
    );
  }
  if (!entity) invalid('expected an EntityDescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId)
    throw badRequest('validation_failed', 'SAML Metadata does not contain an EntityID');
  const descriptors = children(entity, MD, 'IDPSSODescriptor');
  if (descriptors.length < 1) {
    throw badRequest('validation_failed', 'SAML Metadata does not contain any IDPSSODescriptor');
  }
  if (descriptors.length > 1) {
    throw badRequest('validation_failed', 'SAML Metadata contains multiple IDPSSODescriptors');
  }
  const idp = descriptors[0]!;
  const redirect = children(idp, MD, 'SingleSignOnService').find(
    (service) => service.getAttribute('Binding') === HTTP_REDIRECT_BINDING,
  );
  const signingCertificates = children(idp, MD, 'KeyDescriptor')
    .filter((key) => ['', 'signing'].includes(key.getAttribute('use') ?? ''))
    .flatMap((key) => children(key, DS, 'X509Certificate'))
    .map((cert) => toPem(cert.textContent ?? ''));
  const validUntil = entity.getAttribute('validUntil');
  return {
    entityId,
    ssoRedirectUrl: redirect?.getAttribute('Location') || null,
    signingCertificates,
    validUntil: validUntil ? new Date(validUntil) : null,
  };
}
