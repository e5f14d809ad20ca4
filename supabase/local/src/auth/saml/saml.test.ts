import { describe, expect, it } from 'vitest';
import type { Profile } from '@node-saml/node-saml';
import { hookFunctionOf } from '../hooks.ts';
import { emailOf, identityData, mappedClaims, userIdOf } from './claims.ts';
import { parseIdpMetadata } from './metadata.ts';
import { AssertionReplayGuard, EMAIL_NAME_ID, PERSISTENT_NAME_ID } from './service-provider.ts';

const metadata = (inner: string, entityId = 'https://idp.example.test/metadata') =>
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">${inner}</md:EntityDescriptor>`;
const IDP =
  '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
  '<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>MIIB AAAA</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>' +
  '<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>ENC</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>' +
  '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example.test/post"/>' +
  '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.test/redirect"/>' +
  '</md:IDPSSODescriptor>';

const profile = (fields: Partial<Profile> & { attributes?: Record<string, unknown> }): Profile =>
  ({ issuer: 'https://idp.example.test', nameID: '', nameIDFormat: '', ...fields }) as Profile;

describe('parseIdpMetadata', () => {
  it('reads the entity, its redirect endpoint and its signing certificates only', () => {
    const idp = parseIdpMetadata(metadata(IDP));
    expect(idp.entityId).toBe('https://idp.example.test/metadata');
    expect(idp.ssoRedirectUrl).toBe('https://idp.example.test/redirect');
    expect(idp.signingCertificates).toEqual([
      '-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n',
    ]);
  });

  it('refuses what GoTrue refuses, with its messages', () => {
    expect(() => parseIdpMetadata(metadata(IDP, ''))).toThrow(
      'SAML Metadata does not contain an EntityID',
    );
    expect(() => parseIdpMetadata(metadata(''))).toThrow(
      'SAML Metadata does not contain any IDPSSODescriptor',
    );
    expect(() => parseIdpMetadata(metadata(IDP + IDP))).toThrow(
      'SAML Metadata contains multiple IDPSSODescriptors',
    );
    expect(() => parseIdpMetadata('<not xml')).toThrow(/SAML Metadata could not be parsed/);
  });
});

describe('assertion claims', () => {
  it('identifies the user by subject-id, else by a persistent NameID only', () => {
    expect(userIdOf(profile({ nameID: 'p-1', nameIDFormat: PERSISTENT_NAME_ID }))).toBe('p-1');
    expect(userIdOf(profile({ nameID: 'a@b.test', nameIDFormat: EMAIL_NAME_ID }))).toBe('');
    expect(
      userIdOf(
        profile({
          nameID: 'x',
          nameIDFormat: EMAIL_NAME_ID,
          attributes: { 'urn:oasis:names:tc:SAML:attribute:subject-id': 'sid-9' },
        }),
      ),
    ).toBe('sid-9');
  });

  it('finds the e-mail in the mapping, a known attribute, or an emailAddress NameID', () => {
    expect(emailOf(profile({}), { email: 'mapped@x.test' })).toBe('mapped@x.test');
    expect(emailOf(profile({ attributes: { mail: ['m@x.test', 'n@x.test'] } }), {})).toBe(
      'm@x.test',
    );
    expect(emailOf(profile({ nameID: 'n@x.test', nameIDFormat: EMAIL_NAME_ID }), {})).toBe(
      'n@x.test',
    );
    expect(emailOf(profile({ nameID: 'n', nameIDFormat: PERSISTENT_NAME_ID }), {})).toBe('');
  });

  it('applies the attribute mapping: names, arrays and defaults; custom claims aside', () => {
    const claims = mappedClaims(
      profile({ attributes: { displayName: 'Ann', groups: ['a', 'b'] } }),
      {
        keys: {
          name: { names: ['cn', 'displayName'] },
          groups: { name: 'groups', array: true },
          locale: { name: 'lang', default: 'en' },
          missing: { name: 'nothing' },
        },
      },
    );
    expect(claims).toEqual({ name: 'Ann', groups: ['a', 'b'], locale: 'en' });
    expect(identityData('https://idp', 'sub-1', 'ann@x.test', claims)).toEqual({
      iss: 'https://idp',
      sub: 'sub-1',
      name: 'Ann',
      locale: 'en',
      email: 'ann@x.test',
      email_verified: true,
      custom_claims: { groups: ['a', 'b'] },
    });
  });
});

describe('AssertionReplayGuard', () => {
  it('accepts an assertion ID once, and forgets it after its window (plus skew)', () => {
    let now = 1_000_000;
    const guard = new AssertionReplayGuard(() => now);
    const until = new Date(now + 60_000);
    expect(guard.claim('id-1', until)).toBe(true);
    expect(guard.claim('id-1', until)).toBe(false);
    expect(guard.claim('id-2', until)).toBe(true);
    now += 60_000 + 180_000 + 1;
    expect(guard.claim('id-1', until)).toBe(true);
  });
});

describe('hookFunctionOf', () => {
  it('reads pg-functions URIs as the CLI writes them, and refuses others', () => {
    expect(
      hookFunctionOf('pg-functions://postgres/public/hook_password_verification_attempt'),
    ).toEqual({ schema: 'public', name: 'hook_password_verification_attempt' });
    expect(() => hookFunctionOf('https://example.test/hook')).toThrow(/pg-functions/);
    expect(() => hookFunctionOf('pg-functions://postgres/public/x;drop')).toThrow();
  });
});
