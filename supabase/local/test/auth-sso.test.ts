import { decodeJwt } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { anonClient, closeDatabase, database, env, pkceClient } from './auth-helpers.ts';
import {
  fragmentOf,
  postToAcs,
  refusal,
  registerTestIdp,
  requestOf,
  responseFor,
  SP_ENTITY_ID,
  newSigningPair,
  adminSso,
  idpMetadata,
} from './sso-helpers.ts';

/**
 * SAML single sign-on against the stack, started with supabase-js signInWithSSO, as GoTrue
 * answers it: the IdP URL, a session with amr sso/saml after a good response, and a redirect to
 * the site URL with GoTrue's error for each refused one.
 */

const SITE = 'http://localhost:5173';
const REDIRECT_TO = 'http://localhost:5173/app/after-sso';

afterAll(closeDatabase);

async function start(domain: string) {
  const { data, error } = await anonClient().auth.signInWithSSO({
    domain,
    options: { redirectTo: REDIRECT_TO },
  });
  expect(error).toBeNull();
  return requestOf(data!.url);
}

describe('signInWithSSO', () => {
  it('answers the URL of the IdP with a signed AuthnRequest for this service provider', async () => {
    const idp = await registerTestIdp();
    const { data, error } = await anonClient().auth.signInWithSSO({ domain: idp.domain });
    expect(error).toBeNull();
    const url = new URL(data!.url);
    expect(url.origin + url.pathname).toBe('https://idp.example.test/sso');
    expect(url.searchParams.get('SigAlg')).toBe(
      'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    );
    expect(url.searchParams.get('Signature')).toBeTruthy();
    const { inflateRawSync } = await import('node:zlib');
    const xml = inflateRawSync(
      Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64'),
    ).toString();
    expect(xml).toContain(
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${SP_ENTITY_ID}</saml:Issuer>`,
    );
    expect(xml).toContain('nameid-format:persistent');
  });

  it('refuses an unknown domain with sso_provider_not_found', async () => {
    const { data, error } = await anonClient().auth.signInWithSSO({
      domain: 'nobody.example.test',
    });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      status: 404,
      code: 'sso_provider_not_found',
      message: 'No SSO provider assigned for this domain',
    });
  });

  it('signs in through a signed assertion: a session with amr sso/saml and an SSO user', async () => {
    const idp = await registerTestIdp();
    const { id, relayState } = await start(idp.domain);
    const email = `ann@${idp.domain}`;
    const target = await postToAcs(responseFor(idp, { email, inResponseTo: id }), relayState);
    expect(target.origin + target.pathname).toBe(REDIRECT_TO);
    const session = fragmentOf(target);
    expect(session.get('token_type')).toBe('bearer');
    const claims = decodeJwt(session.get('access_token')!);
    expect(claims.email).toBe(email);
    expect(claims.amr).toEqual([expect.objectContaining({ method: 'sso/saml' })]);
    expect((claims.app_metadata as { provider: string }).provider).toBe(`sso:${idp.id}`);
    const { data } = await anonClient().auth.setSession({
      access_token: session.get('access_token')!,
      refresh_token: session.get('refresh_token')!,
    });
    expect(data.user?.identities?.[0]).toMatchObject({ provider: `sso:${idp.id}` });
    const { rows } = await database().query(
      'select is_sso_user, email_confirmed_at is not null as confirmed from auth.users where id = $1',
      [claims.sub],
    );
    expect(rows[0]).toEqual({ is_sso_user: true, confirmed: true });

    // A second sign-in of the same subject links to the same user.
    const again = await start(idp.domain);
    const second = await postToAcs(
      responseFor(idp, { email, inResponseTo: again.id }),
      again.relayState,
    );
    expect(decodeJwt(fragmentOf(second).get('access_token')!).sub).toBe(claims.sub);
  });

  it('hands a PKCE client a code it exchanges for the session', async () => {
    const idp = await registerTestIdp();
    const client = pkceClient();
    const { data } = await client.auth.signInWithSSO({
      domain: idp.domain,
      options: { redirectTo: REDIRECT_TO },
    });
    const { id, relayState } = await requestOf(data!.url);
    const target = await postToAcs(
      responseFor(idp, { email: `pkce@${idp.domain}`, inResponseTo: id }),
      relayState,
    );
    const code = target.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(`pkce@${idp.domain}`);
  });

  it('refuses an assertion for another audience', async () => {
    const idp = await registerTestIdp();
    const { id, relayState } = await start(idp.domain);
    const target = await postToAcs(
      responseFor(idp, {
        email: `x@${idp.domain}`,
        inResponseTo: id,
        audience: 'https://another-app.example.test/metadata',
      }),
      relayState,
    );
    expect(target.origin + target.pathname).toBe(`${SITE}/`);
    expect(refusal(target)).toEqual({
      error: 'invalid_request',
      error_code: 'validation_failed',
      error_description: 'SAML Assertion is not valid',
    });
  });

  it('refuses an expired assertion', async () => {
    const idp = await registerTestIdp();
    const { id, relayState } = await start(idp.domain);
    const target = await postToAcs(
      responseFor(idp, {
        email: `x@${idp.domain}`,
        inResponseTo: id,
        issuedAt: new Date(Date.now() - 20 * 60_000),
        lifetimeMs: 5 * 60_000,
      }),
      relayState,
    );
    expect(refusal(target)).toMatchObject({ error_code: 'validation_failed' });
  });

  it('refuses an unsigned assertion, and one signed with a key the IdP does not hold', async () => {
    const idp = await registerTestIdp();
    const unsigned = await start(idp.domain);
    const first = await postToAcs(
      responseFor(idp, { email: `x@${idp.domain}`, inResponseTo: unsigned.id, sign: 'none' }),
      unsigned.relayState,
    );
    expect(refusal(first)).toMatchObject({
      error_code: 'validation_failed',
      error_description: 'SAML Assertion is not valid',
    });
    const forged = await start(idp.domain);
    const other = await newSigningPair();
    const second = await postToAcs(
      responseFor(idp, {
        email: `x@${idp.domain}`,
        inResponseTo: forged.id,
        privateKey: other.privateKey,
        certificate: other.certificate,
      }),
      forged.relayState,
    );
    expect(refusal(second)).toMatchObject({ error_code: 'validation_failed' });
  });

  it('refuses a replayed response: its relay state is spent', async () => {
    const idp = await registerTestIdp();
    const { id, relayState } = await start(idp.domain);
    const response = responseFor(idp, { email: `r@${idp.domain}`, inResponseTo: id });
    expect(fragmentOf(await postToAcs(response, relayState)).get('access_token')).toBeTruthy();
    const replay = await postToAcs(response, relayState);
    expect(refusal(replay)).toEqual({
      error: 'server_error',
      error_code: 'saml_relay_state_not_found',
      error_description: 'SAML RelayState does not exist, try logging in again?',
    });
  });

  it('refuses a replayed IdP-initiated assertion by its ID', async () => {
    const idp = await registerTestIdp();
    const response = responseFor(idp, { email: `i@${idp.domain}` });
    expect(fragmentOf(await postToAcs(response, '')).get('access_token')).toBeTruthy();
    expect(refusal(await postToAcs(response, ''))).toMatchObject({
      error_code: 'validation_failed',
    });
  });

  it('refuses a response to another request, and one for another ACS', async () => {
    const idp = await registerTestIdp();
    const { relayState } = await start(idp.domain);
    const other = await postToAcs(
      responseFor(idp, { email: `x@${idp.domain}`, inResponseTo: '_not-our-request' }),
      relayState,
    );
    expect(refusal(other)).toMatchObject({ error_code: 'validation_failed' });
    const second = await start(idp.domain);
    const elsewhere = await postToAcs(
      responseFor(idp, {
        email: `x@${idp.domain}`,
        inResponseTo: second.id,
        acsUrl: 'https://another-app.example.test/acs',
      }),
      second.relayState,
    );
    expect(refusal(elsewhere)).toMatchObject({ error_code: 'validation_failed' });
  });
});

describe('the sandbox identity provider', () => {
  it('signs a test user in through its login page and the HTTP-POST binding', async () => {
    const metadata = await (await fetch(env.SAML_IDP_METADATA_URL)).text();
    expect(metadata).toContain('<ds:X509Certificate>');
    const domain = `sandbox-${Date.now()}.example.test`;
    const existing = await adminSso('GET');
    const items = existing.body.items as { id: string; saml: { entity_id: string } }[];
    const registered = items.find((item) => item.saml.entity_id === env.SAML_IDP_METADATA_URL);
    const provider = registered
      ? await adminSso('PUT', `/${registered.id}`, { domains: [domain] })
      : await adminSso('POST', '', {
          type: 'saml',
          metadata_url: env.SAML_IDP_METADATA_URL,
          domains: [domain],
        });
    expect(provider.status).toBeLessThan(300);
    const { data } = await anonClient().auth.signInWithSSO({
      domain,
      options: { redirectTo: REDIRECT_TO },
    });
    const login = await fetch(data!.url);
    const html = await login.text();
    expect(html).toContain('Sign in as ann@sso.shortlane.test');
    const hidden = Object.fromEntries(
      [...html.matchAll(/name="(SAMLRequest|RelayState)" value="([^"]*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const signedIn = await fetch(new URL(data!.url).origin + new URL(data!.url).pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, email: `cara@${domain}`, name: 'Cara' }),
    });
    const post = await signedIn.text();
    const samlResponse = post.match(/name="SAMLResponse" value="([^"]*)"/)?.[1] ?? '';
    const relayState = post.match(/name="RelayState" value="([^"]*)"/)?.[1] ?? '';
    const target = await postToAcs(samlResponse, relayState);
    const claims = decodeJwt(fragmentOf(target).get('access_token')!);
    expect(claims.email).toBe(`cara@${domain}`);
    expect((claims.user_metadata as { name?: string }).name).toBeUndefined();
  });
});

describe('/admin/sso/providers', () => {
  it('creates, reads, updates, lists and deletes a provider with GoTrue errors', async () => {
    const pair = await newSigningPair();
    const entityId = `https://admin-${Date.now()}.example.test/metadata`;
    expect((await adminSso('POST', '', { type: 'oidc', metadata_xml: 'x' })).body).toMatchObject({
      msg: "Only 'saml' supported for SSO provider type",
    });
    expect(
      (await adminSso('POST', '', { type: 'saml', metadata_url: 'http://idp.example.test/m' }))
        .body,
    ).toMatchObject({ error_code: 'validation_failed', msg: 'metadata_url is not a HTTPS URL' });
    const created = await adminSso('POST', '', {
      type: 'saml',
      metadata_xml: idpMetadata(entityId, pair),
      domains: [`admin-${Date.now()}.example.test`],
      attribute_mapping: { keys: { name: { name: 'displayName' } } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      saml: { entity_id: entityId, attribute_mapping: { keys: { name: { name: 'displayName' } } } },
      disabled: null,
    });
    const id = String(created.body.id);
    const duplicate = await adminSso('POST', '', {
      type: 'saml',
      metadata_xml: idpMetadata(entityId, pair),
    });
    expect(duplicate).toMatchObject({
      status: 422,
      body: { error_code: 'saml_idp_already_exists' },
    });
    const updated = await adminSso('PUT', `/${id}`, { domains: ['updated.example.test'] });
    expect(updated.body.domains).toEqual([{ domain: 'updated.example.test' }]);
    const list = await adminSso('GET');
    const listed = (list.body.items as { id: string; saml: Record<string, unknown> }[]).find(
      (item) => item.id === id,
    );
    expect(listed?.saml.metadata_xml).toBeUndefined();
    expect((await adminSso('DELETE', `/${id}`)).status).toBe(200);
    expect(await adminSso('GET', `/${id}`)).toMatchObject({
      status: 404,
      body: { error_code: 'sso_provider_not_found', msg: 'SSO Identity Provider not found' },
    });
  });

  it('is the service role’s only', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/sso/providers`, {
      headers: { apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${env.SUPABASE_ANON_KEY}` },
    });
    expect(response.status).toBe(403);
  });
});
