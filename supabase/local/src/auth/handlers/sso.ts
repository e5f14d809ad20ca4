import { randomUUID } from 'node:crypto';
import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { clientInfo, type AuthContext, type ClientInfo } from '../context.ts';
import { transaction, type Db } from '../db.ts';
import {
  AuthApiError,
  badRequest,
  forbidden,
  internalError,
  notFound,
  unprocessable,
} from '../errors.ts';
import { isUuid, readParams } from '../params.ts';
import { flowOf } from '../pkce.ts';
import { isRedirectUrlValid } from '../redirects.ts';
import type { Router } from '../router.ts';
import { issueSession } from '../tokens.ts';
import { goEncodeValues, withQuery } from '../urls.ts';
import {
  createIdentity,
  findUserById,
  insertUser,
  isBanned,
  mergeMetadata,
  type User,
} from '../users.ts';
import { emailOf, identityData, mappedClaims, userIdOf } from '../saml/claims.ts';
import { parseIdpMetadata } from '../saml/metadata.ts';
import {
  findProviderByDomain,
  findProviderByEntityId,
  findProviderById,
  type SsoProvider,
} from '../saml/providers.ts';
import {
  AssertionReplayGuard,
  assertionNotValid,
  authnRequest,
  serviceProviderKeys,
  serviceProviderMetadata,
  validateResponse,
} from '../saml/service-provider.ts';

/**
 * SAML single sign-on as GoTrue serves it (sso.go, samlacs.go, saml.go): POST /sso starts a
 * sign-in at the provider of a domain or provider id, GET /sso/saml/metadata describes this
 * service provider, POST /sso/saml/acs takes the IdP's signed response, signs the user in and
 * sends the browser to redirect_to with the session (or a PKCE code). A refused response sends
 * the browser to the site URL with error, error_code and error_description in the query.
 */

const SSO_METHOD = 'sso/saml';

interface RelayStateRow {
  id: string;
  sso_provider_id: string;
  request_id: string;
  redirect_to: string | null;
  flow_state_id: string | null;
  created_at: Date;
}

const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

function found(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}

const ssoProviderDisabled = () =>
  notFound('sso_provider_disabled', 'SSO Provider assigned for this domain is currently disabled');

export function ssoRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;
  const replays = new AssertionReplayGuard();

  router.on('POST', '/sso', async ({ request }) => {
    const params = await readParams(request, {
      provider_id: 'string',
      domain: 'string',
      redirect_to: 'string',
      skip_http_redirect: 'boolean',
      code_challenge: 'string',
      code_challenge_method: 'string',
    });
    const providerId = params.provider_id ?? '';
    if (providerId !== '' && !isUuid(providerId)) {
      throw badRequest(
        'bad_json',
        'Could not parse request body as JSON: uuid: incorrect UUID length',
      );
    }
    const domain = params.domain ?? '';
    if (providerId && domain) {
      throw badRequest('validation_failed', 'Only one of provider_id or domain supported');
    }
    if (!providerId && !domain) {
      throw badRequest('validation_failed', 'A provider_id or domain needs to be provided');
    }
    const flow = flowOf(params);
    const provider = providerId
      ? await findProviderById(pool, providerId)
      : await findProviderByDomain(pool, domain);
    if (!provider) {
      throw notFound(
        'sso_provider_not_found',
        providerId ? 'No such SSO provider' : 'No SSO provider assigned for this domain',
      );
    }
    if (provider.disabled) throw ssoProviderDisabled();
    const idp = parseIdpMetadata(provider.metadata_xml);
    const relayStateId = randomUUID();
    const pair = await serviceProviderKeys(settings);
    const request_ = await authnRequest({
      settings,
      idp,
      pair,
      nameIdFormat: provider.name_id_format,
      relayState: relayStateId,
    });
    await transaction(pool, async (tx) => {
      let flowStateId: string | null = null;
      if (flow === 'pkce') {
        flowStateId = randomUUID();
        await tx.query(
          `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method,
             code_challenge, provider_type, authentication_method, created_at, updated_at)
           values ($1, null, $2, $3, $4, $5, $5, now(), now())`,
          [
            flowStateId,
            randomUUID(),
            (params.code_challenge_method ?? '').toLowerCase(),
            params.code_challenge,
            SSO_METHOD,
          ],
        );
      }
      await tx.query(
        `insert into auth.saml_relay_states (id, sso_provider_id, request_id, redirect_to,
           flow_state_id, created_at, updated_at)
         values ($1, $2, $3, $4, $5, now(), now())`,
        [relayStateId, provider.id, request_.id, params.redirect_to ?? '', flowStateId],
      );
    });
    if (params.skip_http_redirect) return json({ url: request_.url });
    return found(request_.url, 303);
  });

  router.on('GET', '/sso/saml/metadata', async ({ url }) => {
    const metadata = serviceProviderMetadata(settings, await serviceProviderKeys(settings));
    const headers: Record<string, string> = {
      'content-type': 'application/xml',
      'cache-control': 'public, max-age=600',
    };
    if (url.searchParams.get('download') === 'true') {
      headers['content-disposition'] = 'attachment; filename="metadata.xml"';
    }
    return new Response(metadata, { status: 200, headers });
  });

  router.on('POST', '/sso/saml/acs', async ({ request, url }) => {
    try {
      return await consumeAssertion(request, url);
    } catch (error) {
      if (!(error instanceof AuthApiError)) throw error;
      const details: Record<string, string> = {
        error: OAUTH_ERRORS[error.status] ?? 'server_error',
        error_code: error.code,
        error_description: error.message,
      };
      return found(withQuery(settings.siteUrl, details), 303);
    }
  });

  async function consumeAssertion(request: Request, url: URL): Promise<Response> {
    const form = new URLSearchParams(url.search);
    const body = new URLSearchParams(await request.text());
    for (const [key, value] of body) form.set(key, value);
    const relayStateValue = form.get('RelayState') ?? '';
    const samlResponse = form.get('SAMLResponse') ?? '';

    let provider: SsoProvider | undefined;
    let redirectTo: string;
    let requestId: string | null = null;
    let flowStateId: string | null = null;
    if (isUuid(relayStateValue)) {
      const relayState = await takeRelayState(relayStateValue);
      provider = await findProviderById(pool, relayState.sso_provider_id);
      if (!provider) throw internalError('Unable to find SSO Provider from SAML RelayState');
      if (provider.disabled) throw ssoProviderDisabled();
      redirectTo = relayState.redirect_to ?? '';
      requestId = relayState.request_id;
      flowStateId = relayState.flow_state_id;
    } else if (relayStateValue === '' || isRequestUri(relayStateValue)) {
      if (form.get('SAMLart')) {
        throw badRequest(
          'validation_failed',
          'SAML Artifact response can only be used with SP initiated flow',
        );
      }
      const issuer = issuerOf(samlResponse);
      provider = await findProviderByEntityId(pool, issuer);
      redirectTo = relayStateValue;
    } else {
      throw badRequest('validation_failed', 'SAML RelayState is not a valid UUID or URL');
    }
    if (!provider) {
      throw notFound(
        'saml_idp_not_found',
        'A SAML connection has not been established with this Identity Provider',
      );
    }
    if (provider.disabled) throw ssoProviderDisabled();
    if (!samlResponse) throw badRequest('validation_failed', 'SAMLResponse is missing');

    const idp = parseIdpMetadata(provider.metadata_xml);
    const pair = await serviceProviderKeys(settings);
    const valid = await validateResponse({ settings, idp, pair, requestId }, samlResponse);
    if (!valid.assertionId || !replays.claim(valid.assertionId, valid.notOnOrAfter)) {
      throw assertionNotValid();
    }
    const subject = userIdOf(valid.profile);
    if (!subject) {
      throw badRequest(
        'saml_assertion_no_user_id',
        'SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user',
      );
    }
    const mapped = mappedClaims(valid.profile, provider.attribute_mapping);
    const email = emailOf(valid.profile, mapped);
    if (!email) {
      throw badRequest(
        'saml_assertion_no_email',
        'SAML Assertion does not contain an email address',
      );
    }
    const data = identityData(provider.entity_id, subject, email.toLowerCase(), mapped);
    const client = clientInfo(request);
    const ssoProvider = provider;
    const outcome = await transaction(pool, async (tx) => {
      const user = await signInExternal(tx, ssoProvider, subject, data, client);
      if (flowStateId) {
        const { rows } = await tx.query<{ user_id: string | null; auth_code: string }>(
          'select user_id, auth_code from auth.flow_state where id = $1 for update',
          [flowStateId],
        );
        const flowState = rows[0];
        if (!flowState) throw notFound('flow_state_not_found', 'Flow state not found');
        if (flowState.user_id) {
          throw badRequest('flow_state_already_used', 'State has already been used');
        }
        await tx.query(
          'update auth.flow_state set user_id = $2, updated_at = now() where id = $1',
          [flowStateId, user.id],
        );
        return { code: flowState.auth_code };
      }
      await recordAudit(tx, user, 'login', client, { provider: `sso:${ssoProvider.id}` });
      return { session: await issueSession(tx, settings, user.id, SSO_METHOD, client) };
    });
    const target = isRedirectUrlValid(settings, redirectTo) ? redirectTo : settings.siteUrl;
    if (outcome.code) return found(withQuery(target, { code: outcome.code }));
    const session = outcome.session!;
    return found(
      `${target}#${goEncodeValues({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
      })}`,
    );
  }

  /** Finds and consumes the relay state: each sign-in at the IdP completes once. */
  async function takeRelayState(id: string): Promise<RelayStateRow> {
    const { rows } = await pool.query<RelayStateRow>(
      'delete from auth.saml_relay_states where id = $1 returning *',
      [id],
    );
    const relayState = rows[0];
    if (!relayState) {
      throw notFound(
        'saml_relay_state_not_found',
        'SAML RelayState does not exist, try logging in again?',
      );
    }
    if (Date.now() - relayState.created_at.getTime() >= settings.saml.relayStateValidityMs) {
      throw unprocessable(
        'saml_relay_state_expired',
        'SAML RelayState has expired. Try logging in again?',
      );
    }
    return relayState;
  }

  /**
   * GoTrue's createAccountFromExternalIdentity for an SSO provider: its identities link only to
   * themselves (the linking domain is the provider), so an SSO user is a user of its own even
   * when a password user has the same address.
   */
  async function signInExternal(
    tx: Db,
    provider: SsoProvider,
    subject: string,
    data: Record<string, unknown>,
    client: ClientInfo,
  ): Promise<User> {
    const providerName = `sso:${provider.id}`;
    const { rows } = await tx.query<{ id: string; user_id: string }>(
      'select id, user_id from auth.identities where provider_id = $1 and provider = $2',
      [subject, providerName],
    );
    const identity = rows[0];
    if (identity) {
      const user = await findUserById(tx, identity.user_id);
      if (!user) throw internalError('Identity without user');
      if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
      await tx.query(
        `update auth.identities set identity_data = $2, last_sign_in_at = now(), updated_at = now()
          where id = $1`,
        [identity.id, JSON.stringify(data)],
      );
      await tx.query(
        'update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1',
        [user.id, JSON.stringify(mergeMetadata(user.raw_user_meta_data, data))],
      );
      return (await findUserById(tx, user.id))!;
    }
    if (!settings.signupEnabled) {
      throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    }
    const userId = await insertUser(tx, {
      aud: settings.audience,
      role: settings.defaultRole,
      email: String(data.email),
      encryptedPassword: '',
      appMetadata: { provider: providerName, providers: [providerName] },
      userMetadata: data,
      isSsoUser: true,
    });
    await createIdentity(tx, userId, providerName, data);
    const user = (await findUserById(tx, userId))!;
    await recordAudit(tx, user, 'user_signedup', client, { provider: providerName });
    return user;
  }
}

function isRequestUri(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value) || value.startsWith('/');
}

/** The Issuer of a response not tied to a relay state (an IdP-initiated sign-in). */
function issuerOf(samlResponse: string): string {
  if (!samlResponse) throw badRequest('validation_failed', 'SAMLResponse is missing');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const match = xml.match(/<(?:\w+:)?Issuer[^>]*>([^<]*)<\/(?:\w+:)?Issuer>/);
  if (!xml.trimStart().startsWith('<') || !match) {
    throw badRequest('validation_failed', 'SAMLResponse is not a valid XML SAML assertion');
  }
  return match[1]!.trim();
}
