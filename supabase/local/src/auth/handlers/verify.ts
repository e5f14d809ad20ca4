import { randomBytes } from 'node:crypto';
import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { clientInfo, type AuthContext, type ClientInfo } from '../context.ts';
import { transaction, type Db } from '../db.ts';
import { AuthApiError, badRequest, unprocessable } from '../errors.ts';
import { clearOneTimeTokens, findOneTimeToken, tokenHash } from '../one-time-tokens.ts';
import { readParams } from '../params.ts';
import { issueAuthCode, PKCE_PREFIX, type FlowType } from '../pkce.ts';
import { hashPassword } from '../passwords.ts';
import { referrerOf } from '../redirects.ts';
import type { Router } from '../router.ts';
import type { AuthenticationMethod } from '../sessions.ts';
import { issueSession, type TokenResponse } from '../tokens.ts';
import {
  EMAIL_VERIFY_TYPES,
  tokenExpired,
  userByEmailAndOtp,
  userByTokenHash,
  type ResolvedType,
  type VerifyType,
} from '../verification.ts';
import {
  applyEmailChange,
  confirmEmail,
  consumeRecovery,
  markEmailIdentitiesVerified,
  updatePassword,
} from '../user-changes.ts';
import {
  emailOf,
  findUserById,
  hasPassword,
  isEmailConfirmed,
  refreshProviders,
  updateUser,
  type User,
} from '../users.ts';
import { goEncodeValues, withFragment, withQuery } from '../urls.ts';
import { validateEmail, validatePhone } from '../validation.ts';

/**
 * GET /verify (the link in an e-mail: redirects with the session in the URL fragment) and
 * POST /verify (verifyOtp: answers with the session), following GoTrue's verify.go.
 */

const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

interface Verified {
  /** The verification type after `email` was resolved to signup or magiclink. */
  type: ResolvedType;
  /** An e-mail change that still awaits its second confirmation: nobody signs in yet. */
  pending: boolean;
}

/** The authentication method a PKCE flow state of this verification type was recorded under. */
const FLOW_METHODS: Record<ResolvedType, AuthenticationMethod> = {
  signup: 'email/signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change: 'email_change',
};

export function verifyRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  async function signupVerify(tx: Db, user: User, client: ClientInfo): Promise<void> {
    if (!hasPassword(user) && user.invited_at !== null) {
      // An invited user gets a random password; the app then asks them to choose one.
      const password = randomBytes(48).toString('base64url');
      await updatePassword(tx, user.id, await hashPassword(password), null);
    }
    await recordAudit(tx, user, 'user_signedup', client, { provider: 'email' });
    await confirmEmail(tx, user);
    await markEmailIdentitiesVerified(tx, user);
  }

  async function recoverVerify(tx: Db, user: User, client: ClientInfo): Promise<void> {
    await consumeRecovery(tx, user.id);
    if (!isEmailConfirmed(user)) {
      await recordAudit(tx, user, 'user_signedup', client, { provider: 'email' });
      await confirmEmail(tx, user);
    } else {
      await recordAudit(tx, user, 'login', client);
    }
  }

  /** False while a secure e-mail change waits for the other address to confirm too. */
  async function emailChangeVerify(
    tx: Db,
    user: User,
    hash: string,
    client: ClientInfo,
  ): Promise<boolean> {
    if (
      !settings.mailerAutoconfirm &&
      settings.secureEmailChange &&
      (user.email_change_confirm_status ?? 0) === 0 &&
      emailOf(user) !== ''
    ) {
      const current =
        (await findOneTimeToken(tx, hash, ['email_change_token_current'])) !== undefined;
      const isCurrent = current || hash === user.email_change_token_current;
      const isNew =
        !isCurrent &&
        ((await findOneTimeToken(tx, hash, ['email_change_token_new'])) !== undefined ||
          hash === user.email_change_token_new);
      await updateUser(tx, user.id, {
        email_change_confirm_status: 1,
        ...(isCurrent ? { email_change_token_current: '' } : {}),
        ...(isNew ? { email_change_token_new: '' } : {}),
      });
      if (isCurrent) await clearOneTimeTokens(tx, user.id, 'email_change_token_current');
      if (isNew) await clearOneTimeTokens(tx, user.id, 'email_change_token_new');
      return false;
    }
    await recordAudit(tx, user, 'user_modified', client);
    await applyEmailChange(tx, user);
    return true;
  }

  async function complete(
    tx: Db,
    user: User,
    type: ResolvedType,
    hash: string,
    client: ClientInfo,
  ): Promise<Verified> {
    switch (type) {
      case 'signup':
      case 'invite':
        await signupVerify(tx, user, client);
        break;
      case 'recovery':
      case 'magiclink':
        await recoverVerify(tx, user, client);
        break;
      case 'email_change':
        if (!(await emailChangeVerify(tx, user, hash, client))) return { type, pending: true };
        break;
    }
    const current = await findUserById(tx, user.id);
    if (current) await refreshProviders(tx, current);
    return { type, pending: false };
  }

  router.on('GET', '/verify', async ({ request, url }) => {
    context.rateLimits.take('verify', request);
    const token = url.searchParams.get('token') ?? '';
    const type = url.searchParams.get('type') ?? '';
    const redirectTo = referrerOf(request, settings);
    if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
    if (!token) throw badRequest('validation_failed', 'Verify requires a token or a token hash');
    const client = clientInfo(request);

    const flow = token.startsWith(PKCE_PREFIX) ? 'pkce' : 'implicit';
    let outcome: { type: ResolvedType; session?: TokenResponse; authCode?: string } | undefined;
    try {
      if (!EMAIL_VERIFY_TYPES.has(type)) {
        throw badRequest('validation_failed', 'Invalid email verification type');
      }
      outcome = await transaction(pool, async (tx) => {
        const found = await userByTokenHash(tx, settings, type as VerifyType, token);
        const verified = await complete(tx, found.user, found.type, token, client);
        if (verified.pending) return undefined;
        if (flow === 'pkce') {
          return {
            type: verified.type,
            authCode: await issueAuthCode(tx, found.user.id, FLOW_METHODS[verified.type]),
          };
        }
        return {
          type: verified.type,
          session: await issueSession(tx, settings, found.user.id, 'otp', client),
        };
      });
    } catch (error) {
      if (!(error instanceof AuthApiError)) throw error;
      return redirect(errorRedirect(redirectTo, error, flow));
    }
    if (!outcome) {
      return redirect(withFragment(redirectTo, { message: SINGLE_CONFIRMATION_ACCEPTED, sb: '' }));
    }
    if (outcome.authCode) return redirect(withQuery(redirectTo, { code: outcome.authCode }));
    const session = outcome.session!;
    const fragment = goEncodeValues({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      sb: '',
      token_type: session.token_type,
      type: outcome.type,
    });
    return redirect(`${redirectTo}#${fragment}`);
  });

  router.on('POST', '/verify', async ({ request }) => {
    context.rateLimits.take('verify', request);
    const params = await readParams(request, {
      type: 'string',
      token: 'string',
      token_hash: 'string',
      email: 'string',
      phone: 'string',
      redirect_to: 'string',
    });
    const type = params.type ?? '';
    if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
    const token = params.token ?? '';
    let hash = params.token_hash ?? '';
    if ((token === '' && hash === '') || (token !== '' && hash !== '')) {
      throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
    }
    let email = '';
    if (token !== '') {
      if (params.phone && !params.email) {
        // No SMS provider is configured, so no phone number ever received a code.
        validatePhone(params.phone);
        throw tokenExpired();
      } else if (params.email && !params.phone) {
        try {
          email = validateEmail(params.email);
        } catch {
          throw unprocessable('validation_failed', 'Invalid email format');
        }
        hash = tokenHash(email, token);
      } else {
        throw badRequest(
          'validation_failed',
          'Only an email address or phone number should be provided on verify',
        );
      }
    } else if (params.email || params.phone || params.redirect_to) {
      throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
    }

    if (!EMAIL_VERIFY_TYPES.has(type)) {
      // GoTrue looks a code up by address and finds nothing it could match; a hash it refuses.
      if (token !== '') throw tokenExpired();
      throw badRequest('validation_failed', 'Invalid email verification type');
    }
    const client = clientInfo(request);
    const session = await transaction(pool, async (tx) => {
      const found =
        token === ''
          ? await userByTokenHash(tx, settings, type as VerifyType, hash)
          : await userByEmailAndOtp(tx, settings, type as VerifyType, email, hash);
      const verified = await complete(tx, found.user, found.type, hash, client);
      if (verified.pending) return undefined;
      return issueSession(tx, settings, found.user.id, 'otp', client);
    });
    if (!session) return json({ msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
    return json(session);
  });
}

const OAUTH_ERRORS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/**
 * GoTrue's prepErrorRedirectURL: the error travels in the fragment of the redirect target, and
 * for the PKCE flow (whose clients read the query) in the query too.
 */
function errorRedirect(redirectTo: string, error: AuthApiError, flow: FlowType): string {
  const details: Record<string, string> = {
    error_code: error.code,
    error_description: error.message,
  };
  const oauthError = OAUTH_ERRORS[error.status];
  if (oauthError) details.error = oauthError;
  const target = flow === 'pkce' ? withQuery(redirectTo, details) : redirectTo;
  return withFragment(target, { ...details, sb: '' });
}

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}
