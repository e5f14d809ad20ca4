import type { Profile } from '@node-saml/node-saml';
import type { AttributeMapping } from './providers.ts';
import { EMAIL_NAME_ID, PERSISTENT_NAME_ID } from './service-provider.ts';

/**
 * What a valid assertion says about the user, as GoTrue's SAMLAssertion reads it: a persistent
 * identifier (the subject-id attribute, else a persistent NameID), an e-mail (mapped, else a
 * well-known attribute, else an emailAddress NameID), and the provider's attribute mapping.
 */

const SUBJECT_ID_ATTRIBUTE = 'urn:oasis:names:tc:SAML:attribute:subject-id';
const EMAIL_ATTRIBUTES = [
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'http://schemas.xmlsoap.org/claims/EmailAddress',
  'mail',
  'Mail',
  'email',
];
/** Claims GoTrue's provider.Claims names; every other mapped key lands in custom_claims. */
const STANDARD_CLAIMS = new Set([
  'name',
  'family_name',
  'given_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone',
]);

type Attributes = Record<string, unknown>;

const attributesOf = (profile: Profile): Attributes =>
  (profile.attributes as Attributes | undefined) ?? {};

const valuesOf = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const firstString = (value: unknown): string => {
  const first = valuesOf(value)[0];
  return typeof first === 'string' ? first : '';
};

export function userIdOf(profile: Profile): string {
  const subjectId = firstString(attributesOf(profile)[SUBJECT_ID_ATTRIBUTE]);
  if (subjectId) return subjectId;
  return profile.nameIDFormat === PERSISTENT_NAME_ID ? (profile.nameID ?? '') : '';
}

export function emailOf(profile: Profile, mapped: Record<string, unknown>): string {
  if (typeof mapped.email === 'string' && mapped.email) return mapped.email;
  const attributes = attributesOf(profile);
  for (const name of EMAIL_ATTRIBUTES) {
    const email = firstString(attributes[name]);
    if (email) return email;
  }
  return profile.nameIDFormat === EMAIL_NAME_ID ? (profile.nameID ?? '') : '';
}

/** The attribute mapping applied: `{ claim: value }` for every key it names. */
export function mappedClaims(
  profile: Profile,
  mapping: AttributeMapping | null,
): Record<string, unknown> {
  const attributes = attributesOf(profile);
  const claims: Record<string, unknown> = {};
  for (const [claim, rule] of Object.entries(mapping?.keys ?? {})) {
    const names = [rule.name, ...(rule.names ?? [])].filter((name): name is string => !!name);
    const found = names.map((name) => attributes[name]).find((value) => value !== undefined);
    if (found !== undefined) claims[claim] = rule.array ? valuesOf(found) : valuesOf(found)[0];
    else if (rule.default !== undefined) claims[claim] = rule.default;
  }
  return claims;
}

/** identity_data of the `sso:<provider id>` identity (GoTrue's provider.Claims). */
export function identityData(
  issuer: string,
  subject: string,
  email: string,
  mapped: Record<string, unknown>,
): Record<string, unknown> {
  const data: Record<string, unknown> = { iss: issuer, sub: subject };
  const custom: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(mapped)) {
    if (claim === 'email' || claim === 'email_verified') continue;
    if (STANDARD_CLAIMS.has(claim)) data[claim] = value;
    else custom[claim] = value;
  }
  data.email = email;
  data.email_verified = true;
  if (Object.keys(custom).length > 0) data.custom_claims = custom;
  return data;
}
