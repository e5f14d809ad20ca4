import { randomUUID } from 'node:crypto';
import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { sendConfirmation } from '../emails.ts';
import { badRequest, internalError, unprocessable } from '../errors.ts';
import { readParams } from '../params.ts';
import { createFlowState, flowOf, type PkceRequest } from '../pkce.ts';
import { refuseDictionaryPassword } from '../password-dictionary.ts';
import { checkPasswordStrength, hashPassword } from '../passwords.ts';
import { referrerOf } from '../redirects.ts';
import type { Router } from '../router.ts';
import { issueSession } from '../tokens.ts';
import { confirmEmail } from '../user-changes.ts';
import { userJson, type UserJson } from '../user-json.ts';
import {
  createIdentity,
  findIdentity,
  findUserByEmail,
  findUserById,
  insertUser,
  isEmailConfirmed,
  refreshProviders,
  updateUser,
  type User,
} from '../users.ts';
import type { AuthSettings } from '../settings.ts';
import { validateEmail } from '../validation.ts';

const SIGNUP_PARAMS = {
  email: 'string',
  phone: 'string',
  password: 'string',
  data: 'object',
  channel: 'string',
  code_challenge: 'string',
  code_challenge_method: 'string',
} as const;

/**
 * The answer to a sign-up for an address that is already confirmed: a plausible user that
 * reveals nothing about the real one (GoTrue's sanitizeUser), so sign-up cannot probe accounts.
 */
function sanitizedUser(user: User, data: Record<string, unknown>, aud: string): UserJson {
  const now = new Date();
  return userJson({
    ...user,
    id: randomUUID(),
    aud,
    role: '',
    email_change: '',
    phone: '',
    created_at: now,
    updated_at: now,
    confirmation_sent_at: now,
    last_sign_in_at: null,
    confirmed_at: null,
    email_change_sent_at: null,
    email_confirmed_at: null,
    phone_confirmed_at: null,
    identities: [],
    factors: [],
    raw_user_meta_data: data,
    raw_app_meta_data: { provider: 'email', providers: ['email'] },
  });
}

class AlreadyRegistered extends Error {}

export function signupRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  async function signUpAnonymously(request: Request, data: Record<string, unknown>) {
    const client = clientInfo(request);
    const body = await transaction(pool, async (tx) => {
      const userId = await insertUser(tx, {
        aud: settings.audience,
        role: settings.defaultRole,
        email: null,
        encryptedPassword: '',
        appMetadata: {},
        userMetadata: data,
        isAnonymous: true,
      });
      const user = await findUserById(tx, userId);
      if (!user) throw internalError('Database error saving new user');
      await recordAudit(tx, user, 'user_signedup', client, { provider: 'anonymous' });
      await recordAudit(tx, user, 'login', client, { provider: 'anonymous' });
      return issueSession(tx, settings, userId, 'anonymous', client);
    });
    return json(body);
  }

  router.on('POST', '/signup', async ({ request }) => {
    const params = await readParams(request, SIGNUP_PARAMS);
    const data = params.data ?? {};
    // GoTrue's order: the anonymous provider is checked before signups are (api.go, anonymous.go).
    if (!params.email && !params.phone) {
      if (!settings.anonymousSignInsEnabled) {
        throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      }
      refuseWhenSignupsDisabled(settings);
      context.rateLimits.take('anonymous', request);
      return signUpAnonymously(request, data);
    }
    refuseWhenSignupsDisabled(settings);
    context.rateLimits.take('signups', request);
    if (!params.password) {
      throw badRequest('validation_failed', 'Signup requires a valid password');
    }
    checkPasswordStrength(settings, params.password);
    await refuseDictionaryPassword(pool, params.password);
    if (params.email && params.phone) {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on signup.',
      );
    }
    if (params.phone) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    flowOf(params);
    return signUpWithEmail(context, request, {
      email: params.email ?? '',
      password: params.password,
      data,
      pkce: params,
    });
  });
}

/** [auth] enable_signup = false (GoTrue's DISABLE_SIGNUP): no new user but through the admin API. */
export function refuseWhenSignupsDisabled(settings: AuthSettings): void {
  if (!settings.signupEnabled) {
    throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  }
}

export interface EmailSignup {
  email: string;
  password: string;
  data: Record<string, unknown>;
  /** code_challenge and its method when the client runs the PKCE flow. */
  pkce?: PkceRequest;
}

/** The e-mail part of POST /signup; POST /otp signs new addresses up through it too. */
export async function signUpWithEmail(
  context: AuthContext,
  request: Request,
  input: EmailSignup,
): Promise<Response> {
  const { settings, pool } = context;
  const data = input.data;
  if (!settings.emailSignupEnabled) {
    throw badRequest('email_provider_disabled', 'Email signups are disabled');
  }
  const email = validateEmail(input.email);
  const client = clientInfo(request);
  const redirectTo = referrerOf(request, settings);
  const pkce = input.pkce ?? {};
  const flow = flowOf(pkce);
  const aud = settings.audience;

  const existing = await findUserByEmail(pool, email, aud);
  // Hash outside the transaction: bcrypt is slow and would hold a connection.
  const encryptedPassword = existing ? '' : await hashPassword(input.password);

  let userId: string;
  try {
    userId = await transaction(pool, async (tx) => {
      let user = existing;
      if (user && isEmailConfirmed(user)) throw new AlreadyRegistered();
      if (!user) {
        const id = await insertUser(tx, {
          aud,
          role: settings.defaultRole,
          email,
          encryptedPassword,
          appMetadata: { provider: 'email', providers: ['email'] },
          userMetadata: data,
        });
        user = await findUserById(tx, id);
        if (!user) throw internalError('Database error loading user after sign-up');
      }
      // An unconfirmed account is left as it is: the caller has not proven it is theirs.
      if (!(await findIdentity(tx, user.id, 'email'))) {
        const identityData: Record<string, unknown> = {
          sub: user.id,
          email,
          email_verified: false,
          phone_verified: false,
        };
        for (const [key, value] of Object.entries(data)) {
          if (!(key in identityData)) identityData[key] = value;
        }
        await createIdentity(tx, user.id, 'email', identityData);
        // Until confirmed, the account is the newest claimant's: GoTrue's
        // RemoveUnconfirmedIdentities resets its metadata to the identity's and drops the rest.
        await tx.query(`delete from auth.identities where user_id = $1 and provider <> 'email'`, [
          user.id,
        ]);
        await updateUser(tx, user.id, { raw_user_meta_data: identityData });
        await refreshProviders(tx, user);
        user = (await findUserById(tx, user.id)) ?? user;
      }
      if (settings.mailerAutoconfirm) {
        await recordAudit(tx, user, 'user_signedup', client, { provider: 'email' });
        await confirmEmail(tx, user);
      } else {
        await recordAudit(tx, user, 'user_confirmation_requested', client, { provider: 'email' });
        if (flow === 'pkce') {
          await createFlowState(tx, user.id, 'email', 'email/signup', pkce);
        }
        await sendConfirmation(context, tx, user, { redirectTo, flow });
      }
      return user.id;
    });
  } catch (error) {
    if (!(error instanceof AlreadyRegistered) || !existing) throw error;
    await recordAudit(pool, existing, 'user_repeated_signup', client, { provider: 'email' });
    if (settings.mailerAutoconfirm) {
      throw unprocessable('user_already_exists', 'User already registered');
    }
    return json(sanitizedUser(existing, data, aud));
  }

  const user = await findUserById(pool, userId);
  if (!user) throw internalError('Database error loading user after sign-up');
  if (isEmailConfirmed(user)) {
    const body = await transaction(pool, async (tx) => {
      await recordAudit(tx, user, 'login', client, { provider: 'email' });
      return issueSession(tx, settings, user.id, 'password', client);
    });
    return json(body);
  }
  return json(userJson(user));
}
