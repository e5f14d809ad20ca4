import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { requireAuthentication, type Authenticated } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction, type Db } from '../db.ts';
import { sendEmailChange, sendReauthentication } from '../emails.ts';
import {
  badRequest,
  DUPLICATE_EMAIL_MESSAGE,
  forbidden,
  internalError,
  unauthorized,
  unprocessable,
} from '../errors.ts';
import { refuseImpersonation } from '../impersonation.ts';
import { clearOneTimeTokens, tokenHash } from '../one-time-tokens.ts';
import { readParams } from '../params.ts';
import { createFlowState, flowOf } from '../pkce.ts';
import { refuseDictionaryPassword } from '../password-dictionary.ts';
import { checkPasswordStrength, hashPassword, verifyPassword } from '../passwords.ts';
import { referrerOf } from '../redirects.ts';
import type { Router } from '../router.ts';
import { applyEmailChange, updatePassword } from '../user-changes.ts';
import { userJson } from '../user-json.ts';
import {
  emailOf,
  findUserByEmail,
  findUserById,
  hasPassword,
  hasVerifiedFactor,
  isEmailConfirmed,
  mergeMetadata,
  phoneOf,
  updateUser,
  type User,
} from '../users.ts';
import { validateEmail, validatePhone } from '../validation.ts';

const USER_UPDATE_PARAMS = {
  email: 'string',
  password: 'string',
  current_password: 'string',
  nonce: 'string',
  data: 'object',
  app_metadata: 'object',
  phone: 'string',
  channel: 'string',
  code_challenge: 'string',
  code_challenge_method: 'string',
} as const;

const INVALID_NONCE = 'Nonce has expired or is invalid';
const REAUTHENTICATION_WINDOW_MS = 24 * 60 * 60 * 1000;

export function userRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  /** A nonce from GET /reauthenticate proves the user just read their mail (verifyReauthentication). */
  async function consumeNonce(db: Db, user: User, nonce: string): Promise<void> {
    const sentAt = user.reauthentication_sent_at;
    const expected = user.reauthentication_token ?? '';
    const valid =
      expected !== '' &&
      sentAt !== null &&
      Date.now() <= sentAt.getTime() + settings.otpExpirySeconds * 1000 &&
      tokenHash(emailOf(user), nonce) === expected;
    if (!valid) throw unprocessable('reauthentication_not_valid', INVALID_NONCE);
    await updateUser(db, user.id, { reauthentication_token: '' });
    await clearOneTimeTokens(db, user.id);
  }

  router.on('GET', '/user', async ({ request }) => {
    const { user, claims } = await requireAuthentication(context, request);
    const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (audience !== settings.audience) {
      throw badRequest('validation_failed', "Token audience doesn't match request audience");
    }
    return json(userJson(user));
  });

  router.on('PUT', '/user', async ({ request }) => {
    const { user, session, claims }: Authenticated = await requireAuthentication(context, request);
    context.rateLimits.take('user', request);
    const params = await readParams(request, USER_UPDATE_PARAMS);
    const email = params.email ? validateEmail(params.email) : '';
    const phone = params.phone ? validatePhone(params.phone) : '';
    const password = params.password;
    const changesEmail = email !== '' && email !== emailOf(user);
    const changesPhone = phone !== '' && phone !== phoneOf(user);
    if (password !== undefined || changesEmail || changesPhone) {
      refuseImpersonation(claims, 'change the password, email or phone');
    }
    if (password !== undefined) {
      checkPasswordStrength(settings, password);
      await refuseDictionaryPassword(pool, password);
    }

    if (params.app_metadata && !settings.adminRoles.includes(user.role ?? '')) {
      throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
    }
    if (hasVerifiedFactor(user) && session?.aal !== 'aal2') {
      if ((password !== undefined && password !== '') || changesEmail || changesPhone) {
        throw unauthorized(
          'insufficient_aal',
          'AAL2 session is required to update email or password when MFA is enabled.',
        );
      }
    }
    if (user.is_anonymous && password && !email && !phone) {
      throw unprocessable(
        'validation_failed',
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
    }
    if (changesEmail) {
      const duplicate = await findUserByEmail(pool, email, user.aud ?? settings.audience);
      if (duplicate && duplicate.id !== user.id) {
        throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
      }
    }
    if (changesPhone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');

    let encryptedPassword: string | undefined;
    if (password !== undefined) {
      const sessionIsOld =
        !session || Date.now() > session.created_at.getTime() + REAUTHENTICATION_WINDOW_MS;
      if (settings.updatePasswordRequiresReauthentication && sessionIsOld) {
        if (!params.nonce) {
          throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
        }
        await consumeNonce(pool, user, params.nonce);
      }
      if (password !== '' && hasPassword(user)) {
        if (await verifyPassword(password, user.encrypted_password)) {
          throw unprocessable(
            'same_password',
            'New password should be different from the old password.',
          );
        }
      }
      encryptedPassword = password === '' ? '' : await hashPassword(password);
    }

    const client = clientInfo(request);
    const redirectTo = referrerOf(request, settings);
    const flow = flowOf(params);
    await transaction(pool, async (tx) => {
      if (encryptedPassword !== undefined) {
        await updatePassword(tx, user.id, encryptedPassword, session?.id ?? null);
        await recordAudit(tx, user, 'user_updated_password', client);
      }
      if (params.data) {
        await updateUser(tx, user.id, {
          raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, params.data),
        });
      }
      if (params.app_metadata) {
        await updateUser(tx, user.id, {
          raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, params.app_metadata),
        });
      }
      if (changesEmail) {
        const current = await findUserById(tx, user.id);
        if (!current) throw internalError('Error updating user');
        if (current.is_anonymous && settings.mailerAutoconfirm) {
          // An anonymous user adding an address is signing up; with autoconfirm it just applies.
          await applyEmailChange(tx, { ...current, email_change: email });
        } else {
          if (flow === 'pkce') {
            await createFlowState(tx, user.id, 'email_change', 'email_change', params);
          }
          await sendEmailChange(context, tx, current, email, { redirectTo, flow });
        }
      }
      await recordAudit(tx, user, 'user_modified', client);
    });

    const updated = await findUserById(pool, user.id);
    if (!updated) throw internalError('Error updating user');
    return json(userJson(updated));
  });

  router.on('GET', '/reauthenticate', async ({ request }) => {
    const { user } = await requireAuthentication(context, request);
    if (emailOf(user) === '' && phoneOf(user) === '') {
      throw badRequest(
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      );
    }
    if (emailOf(user) === '') {
      throw unprocessable('phone_provider_disabled', 'Unsupported phone provider');
    }
    if (!isEmailConfirmed(user)) {
      throw unprocessable('email_not_confirmed', 'Please verify your email first.');
    }
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      await recordAudit(tx, user, 'user_reauthenticate_requested', client);
      await sendReauthentication(context, tx, user);
    });
    return json({});
  });
}
