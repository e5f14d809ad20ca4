import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import type { WebHandler } from '../http.ts';
import { certificateBody, type SigningPair } from '../signing-keys.ts';
import { buildSamlResponse } from './response.ts';

/**
 * A sandbox SAML identity provider, mounted by the gateway at /sandbox/saml-idp, so that single
 * sign-on runs end to end on this machine: GET /metadata (its EntityDescriptor and signing
 * certificate: what an organization registers), GET /sso (the HTTP-Redirect binding: a login
 * page listing test users, or any address typed in) and POST /sso (signs the user in: a page
 * that posts the signed Response to the service provider's ACS, the HTTP-POST binding).
 * Its key pair is made at the stack's first start and kept in its state folder.
 */

export interface SandboxUser {
  email: string;
  name: string;
}

export interface SamlIdpOptions {
  /** Public base of the sandbox, e.g. http://127.0.0.1:54321/sandbox/saml-idp. */
  publicUrl: string;
  pair: SigningPair;
  users?: SandboxUser[];
}

export const DEFAULT_SANDBOX_USERS: SandboxUser[] = [
  { email: 'ann@sso.shortlane.test', name: 'Ann Example' },
  { email: 'ben@sso.shortlane.test', name: 'Ben Example' },
];

interface AuthnRequestInfo {
  id: string;
  issuer: string;
  acsUrl: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

function page(title: string, body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
      `<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}` +
      `button{font:inherit;padding:.4rem .9rem;margin:.2rem 0}input{font:inherit;padding:.3rem;width:100%;box-sizing:border-box}` +
      `label{display:block;margin:.6rem 0 .2rem}</style></head><body>${body}</body></html>`,
    {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    },
  );
}

/** The AuthnRequest of the HTTP-Redirect binding: base64 of the raw-deflated XML. */
export function readAuthnRequest(samlRequest: string): AuthnRequestInfo {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (!root || root.localName !== 'AuthnRequest') throw new Error('not an AuthnRequest');
  const issuer = root.getElementsByTagNameNS('*', 'Issuer')[0]?.textContent?.trim() ?? '';
  const acsUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
  const id = root.getAttribute('ID') ?? '';
  if (!issuer || !acsUrl || !id) throw new Error('the AuthnRequest lacks ID, Issuer or ACS URL');
  return { id, issuer, acsUrl };
}

export function createSamlIdpSandbox(options: SamlIdpOptions): WebHandler {
  const entityId = `${options.publicUrl}/metadata`;
  const ssoUrl = `${options.publicUrl}/sso`;
  const users = options.users ?? DEFAULT_SANDBOX_USERS;

  const metadata =
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeHtml(entityId)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>` +
    `<ds:X509Certificate>${certificateBody(options.pair.certificate)}</ds:X509Certificate>` +
    `</ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeHtml(ssoUrl)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;

  function loginPage(samlRequest: string, relayState: string, request: AuthnRequestInfo) {
    const hidden =
      `<input type="hidden" name="SAMLRequest" value="${escapeHtml(samlRequest)}">` +
      `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`;
    const listed = users
      .map(
        (user) =>
          `<form method="post" action="${escapeHtml(ssoUrl)}">${hidden}` +
          `<input type="hidden" name="email" value="${escapeHtml(user.email)}">` +
          `<input type="hidden" name="name" value="${escapeHtml(user.name)}">` +
          `<button type="submit">Sign in as ${escapeHtml(user.email)}</button></form>`,
      )
      .join('');
    return page(
      'Sandbox identity provider',
      `<h1>Sandbox identity provider</h1>` +
        `<p>${escapeHtml(request.issuer)} asks who you are. Pick a test user or type any address.</p>` +
        listed +
        `<form method="post" action="${escapeHtml(ssoUrl)}">${hidden}` +
        `<label for="email">E-mail</label><input id="email" name="email" type="email" required>` +
        `<label for="name">Name</label><input id="name" name="name">` +
        `<p><button type="submit">Sign in</button></p></form>`,
    );
  }

  function postToAcs(acsUrl: string, samlResponse: string, relayState: string): Response {
    return page(
      'Signing you in',
      `<form method="post" action="${escapeHtml(acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">` +
        (relayState
          ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`
          : '') +
        `<p>Signing you in…</p><noscript><button type="submit">Continue</button></noscript></form>` +
        `<script>document.forms[0].submit()</script>`,
    );
  }

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, '');
    if (request.method === 'GET' && path.endsWith('/metadata')) {
      return new Response(metadata, { headers: { 'content-type': 'application/xml' } });
    }
    if (path.endsWith('/sso') && (request.method === 'GET' || request.method === 'POST')) {
      const form =
        request.method === 'GET' ? url.searchParams : new URLSearchParams(await request.text());
      const samlRequest = form.get('SAMLRequest') ?? '';
      const relayState = form.get('RelayState') ?? '';
      let authn: AuthnRequestInfo;
      try {
        authn = readAuthnRequest(samlRequest);
      } catch (error) {
        return page(
          'Bad request',
          `<h1>Bad request</h1><p>No valid SAMLRequest: ${escapeHtml((error as Error).message)}</p>`,
          400,
        );
      }
      if (request.method === 'GET') return loginPage(samlRequest, relayState, authn);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        return page('Bad request', '<h1>Bad request</h1><p>Type a valid e-mail address.</p>', 400);
      }
      const name = (form.get('name') ?? '').trim();
      const samlResponse = buildSamlResponse({
        issuer: entityId,
        audience: authn.issuer,
        acsUrl: authn.acsUrl,
        inResponseTo: authn.id,
        // The address is the user's stable identifier at this IdP.
        nameId: email,
        email,
        attributes: name ? { name } : {},
        privateKey: options.pair.privateKey,
        certificate: options.pair.certificate,
      });
      return postToAcs(authn.acsUrl, samlResponse, relayState);
    }
    return new Response('Not found', { status: 404 });
  };
}
