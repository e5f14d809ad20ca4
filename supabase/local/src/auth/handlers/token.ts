import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { badRequest, notFound, unprocessable, WeakPasswordError } from '../errors.ts';
import { passwordVerificationAttempt } from '../hooks.ts';
import { readParams } from '../params.ts';
import {
  findFlowStateByAuthCode,
  flowStateExpired,
  isFlowStateExpired,
  verifyCodeVerifier,
} from '../pkce.ts';
import type { AuthenticationMethod } from '../sessions.ts';
import { checkPasswordStrength, verifyPassword } from '../passwords.ts';
import type { Router } from '../router.ts';
import { issueSession, refreshTokenGrant } from '../tokens.ts';
import {
  findUserByEmail,
  findUserById,
  hasPassword,
  isBanned,
  isEmailConfirmed,
} from '../users.ts';

const INVALID_LOGIN = 'Invalid login credentials';

export function tokenRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  async function passwordGrant(request: Request): Promise<Response> {
    const params = await readParams(request, {
      email: 'string',
      phone: 'string',
      password: 'string',
    });
    if (params.email && params.phone) {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on login.',
      );
    }
    if (params.phone) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
    if (!params.email) throw badRequest('validation_failed', 'missing email or phone');
    if (!settings.emailSignupEnabled) {
      throw unprocessable('email_provider_disabled', 'Email logins are disabled');
    }

    const user = await findUserByEmail(pool, params.email, settings.audience);
    if (!user || !hasPassword(user)) throw badRequest('invalid_credentials', INVALID_LOGIN);
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
    const password = params.password ?? '';
    const valid = await verifyPassword(password, user.encrypted_password);
    await passwordVerificationAttempt(
      pool,
      settings.hooks.passwordVerificationAttempt,
      user.id,
      valid,
      clientInfo(request),
    );
    if (!valid) throw badRequest('invalid_credentials', INVALID_LOGIN);
    // A correct password that today's rules would refuse still signs in, with a warning.
    let weakPassword: WeakPasswordError | undefined;
    try {
      checkPasswordStrength(settings, password);
    } catch (error) {
      if (error instanceof WeakPasswordError) weakPassword = error;
    }
    if (!isEmailConfirmed(user)) throw badRequest('email_not_confirmed', 'Email not confirmed');

    const client = clientInfo(request);
    const body = await transaction(pool, async (tx) => {
      await recordAudit(tx, user, 'login', client, { provider: 'email' });
      return issueSession(tx, settings, user.id, 'password', client);
    });
    return json(
      weakPassword
        ? {
            ...body,
            weak_password: { message: weakPassword.message, reasons: weakPassword.reasons },
          }
        : body,
    );
  }

  async function refreshGrant(request: Request): Promise<Response> {
    const params = await readParams(request, { refresh_token: 'string' });
    return json(await refreshTokenGrant(context, params.refresh_token ?? '', clientInfo(request)));
  }

  /** grant_type=pkce: the auth code from a /verify redirect, proven by the code verifier. */
  async function pkceGrant(request: Request): Promise<Response> {
    const params = await readParams(request, { auth_code: 'string', code_verifier: 'string' });
    if (!params.auth_code || !params.code_verifier) {
      throw badRequest(
        'validation_failed',
        'invalid request: both auth code and code verifier should be non-empty',
      );
    }
    const flow = await findFlowStateByAuthCode(pool, params.auth_code);
    if (!flow?.user_id) {
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    if (isFlowStateExpired(flow)) throw flowStateExpired();
    const userId = flow.user_id;
    verifyCodeVerifier(flow, params.code_verifier);
    const client = clientInfo(request);
    const body = await transaction(pool, async (tx) => {
      const user = await findUserById(tx, userId);
      if (!user) throw notFound('user_not_found', 'User not found');
      await recordAudit(tx, user, 'login', client, { provider_type: flow.provider_type });
      const session = await issueSession(
        tx,
        settings,
        user.id,
        flow.authentication_method as AuthenticationMethod,
        client,
      );
      await tx.query('delete from auth.flow_state where id = $1', [flow.id]);
      return session;
    });
    return json(body);
  }

  const GRANTS: Record<string, (request: Request) => Promise<Response>> = {
    password: passwordGrant,
    refresh_token: refreshGrant,
    pkce: pkceGrant,
  };

  router.on('POST', '/token', async ({ request, url }) => {
    const grant = GRANTS[url.searchParams.get('grant_type') ?? ''];
    if (!grant) throw badRequest('invalid_credentials', 'unsupported_grant_type');
    context.rateLimits.take('token', request);
    return grant(request);
  });
}
