import { randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

/**
 * SAML 2.0 Responses as an identity provider sends them over the HTTP-POST binding: a Response
 * holding one Assertion about the user (persistent NameID, e-mail and name attributes), signed
 * with the IdP's key (enveloped signature, exclusive c14n, RSA-SHA256). The sandbox IdP sends
 * good ones; tests use the same builder to send the bad ones an attacker or a broken IdP would
 * (another audience, an expired window, no signature, someone else's key).
 */

export interface AssertionInput {
  /** The IdP's entity ID (the Issuer). */
  issuer: string;
  /** The service provider's entity ID (the Audience). */
  audience: string;
  /** The service provider's ACS URL (Destination and Recipient). */
  acsUrl: string;
  /** The AuthnRequest answered; absent for an IdP-initiated response. */
  inResponseTo?: string;
  /** The persistent subject identifier. */
  nameId: string;
  email: string;
  attributes?: Record<string, string | string[]>;
  /** When it was issued (default now); the window opens then and closes `lifetimeMs` later. */
  issuedAt?: Date;
  lifetimeMs?: number;
  /** What carries the signature (default the assertion). */
  sign?: 'assertion' | 'response' | 'both' | 'none';
  privateKey: string;
  certificate: string;
  /** Fixed IDs let a test send the same assertion twice. */
  responseId?: string;
  assertionId?: string;
}

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const DEFAULT_LIFETIME_MS = 5 * 60_000;

export const newSamlId = () => `_${randomBytes(20).toString('hex')}`;

function escapeXml(value: string): string {
  return value.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!,
  );
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function attributeXml(name: string, values: string | string[]): string {
  const list = Array.isArray(values) ? values : [values];
  return (
    `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
    list
      .map(
        (value) =>
          `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue>`,
      )
      .join('') +
    `</saml:Attribute>`
  );
}

function sign(xml: string, input: AssertionInput, target: 'Assertion' | 'Response'): string {
  const signer = new SignedXml({
    privateKey: input.privateKey,
    publicCert: input.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const element = `//*[local-name(.)='${target}' and namespace-uri(.)='${target === 'Assertion' ? SAML : SAMLP}']`;
  signer.addReference({
    xpath: element,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  // The schema puts the signature right after the element's Issuer.
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** The Response XML (not yet base64). */
export function buildSamlResponseXml(input: AssertionInput): string {
  const issuedAt = input.issuedAt ?? new Date();
  const until = new Date(issuedAt.getTime() + (input.lifetimeMs ?? DEFAULT_LIFETIME_MS));
  const responseId = input.responseId ?? newSamlId();
  const assertionId = input.assertionId ?? newSamlId();
  const inResponseTo = input.inResponseTo ? ` InResponseTo="${escapeXml(input.inResponseTo)}"` : '';
  const attributes = {
    email: input.email,
    mail: input.email,
    ...input.attributes,
  };
  const assertion =
    `<saml:Assertion xmlns:saml="${SAML}" ID="${assertionId}" Version="2.0" IssueInstant="${iso(issuedAt)}">` +
    `<saml:Issuer>${escapeXml(input.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${PERSISTENT}">${escapeXml(input.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${iso(until)}" Recipient="${escapeXml(input.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(issuedAt)}" NotOnOrAfter="${iso(until)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(input.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(issuedAt)}" SessionIndex="${assertionId}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    `<saml:AttributeStatement>` +
    Object.entries(attributes)
      .map(([name, values]) => attributeXml(name, values))
      .join('') +
    `</saml:AttributeStatement></saml:Assertion>`;
  const mode = input.sign ?? 'assertion';
  const signedAssertion =
    mode === 'assertion' || mode === 'both' ? sign(assertion, input, 'Assertion') : assertion;
  const response =
    `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${responseId}" Version="2.0" IssueInstant="${iso(issuedAt)}" Destination="${escapeXml(input.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(input.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion.replace(/^<\?xml[^>]*>/, '') +
    `</samlp:Response>`;
  return mode === 'response' || mode === 'both' ? sign(response, input, 'Response') : response;
}

/** The SAMLResponse form value of the HTTP-POST binding. */
export function buildSamlResponse(input: AssertionInput): string {
  return Buffer.from(buildSamlResponseXml(input), 'utf8').toString('base64');
}
