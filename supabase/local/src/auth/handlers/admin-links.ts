import { randomBytes } from 'node:crypto';
import { json } from '../../http.ts';
import { adminActor, recordAudit } from '../audit.ts';
import { requireAdmin } from '../authenticate.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction, type Db } from '../db.ts';
import {
  actionLink,
  issueConfirmationToken,
  issueEmailChangeToken,
  issueInviteToken,
  issueRecoveryToken,
  sendInvite,
  type IssuedToken,
  type LinkType,
} from '../emails.ts';
import {
  badRequest,
  DUPLICATE_EMAIL_MESSAGE,
  internalError,
  notFound,
  unprocessable,
} from '../errors.ts';
import { readParams } from '../params.ts';
import { checkPasswordStrength, hashPassword } from '../passwords.ts';
import { isRedirectUrlValid, referrerOf } from '../redirects.ts';
import type { Router } from '../router.ts';
import { userJson } from '../user-json.ts';
import {
  createIdentity,
  findUserByEmail,
  findUserById,
  insertUser,
  isEmailConfirmed,
  mergeMetadata,
  updateUser,
  type User,
} from '../users.ts';
import { validateEmail } from '../validation.ts';

/**
 * POST /admin/generate_link (the links a server sends itself, e.g. through its own mailer) and
 * POST /invite, following GoTrue's adminGenerateLink and Invite.
 */

type GenerateLinkType =
  'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change_current' | 'email_change_new';

const LINK_TYPES = new Set<string>([
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
]);

/** A user for an address nobody has yet, as sign-up would create it (no mail is sent). */
async function createEmailUser(
  db: Db,
  context: AuthContext,
  email: string,
  encryptedPassword: string,
  data: Record<string, unknown>,
): Promise<User> {
  const id = await insertUser(db, {
    aud: context.settings.audience,
    role: context.settings.defaultRole,
    email,
    encryptedPassword,
    appMetadata: { provider: 'email', providers: ['email'] },
    userMetadata: data,
  });
  await createIdentity(db, id, 'email', {
    sub: id,
    email,
    email_verified: false,
    phone_verified: false,
  });
  const user = await findUserById(db, id);
  if (!user) throw internalError('Database error saving new user');
  return user;
}

export function adminLinkRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  router.on('POST', '/admin/generate_link', async ({ request }) => {
    const role = await requireAdmin(context, request);
    const params = await readParams(request, {
      type: 'string',
      email: 'string',
      new_email: 'string',
      password: 'string',
      data: 'object',
      redirect_to: 'string',
    });
    const email = validateEmail(params.email);
    const redirectTo =
      params.redirect_to && isRedirectUrlValid(settings, params.redirect_to)
        ? params.redirect_to
        : referrerOf(request, settings);
    const data = params.data ?? {};
    let type = (params.type ?? '') as GenerateLinkType;
    let password = params.password ?? '';

    const existing = await findUserByEmail(pool, email, settings.audience);
    if (!existing) {
      if (type === 'magiclink') {
        // A magic link for a new address signs it up, with a password nobody knows.
        type = 'signup';
        password = randomBytes(48).toString('base64url');
      } else if (
        type === 'recovery' ||
        type === 'email_change_current' ||
        type === 'email_change_new'
      ) {
        throw notFound('user_not_found', 'User with this email not found');
      }
    }
    let encryptedPassword = '';
    if (type === 'signup' && !existing) {
      if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
      checkPasswordStrength(settings, password);
      encryptedPassword = await hashPassword(password);
    }
    if (!LINK_TYPES.has(type)) {
      throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`);
    }
    const client = clientInfo(request);

    const result = await transaction(pool, async (tx) => {
      let user = existing;
      let token: IssuedToken;
      let linkType: LinkType;
      switch (type) {
        case 'magiclink':
        case 'recovery':
          await recordAudit(tx, user!, 'user_recovery_requested', client);
          token = await issueRecoveryToken(tx, settings, user!);
          linkType = type;
          break;
        case 'invite':
          if (user && isEmailConfirmed(user)) {
            throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
          }
          user ??= await createEmailUser(tx, context, email, '', data);
          await recordAudit(tx, adminActor(role), 'user_invited', client, {
            user_id: user.id,
            user_email: user.email ?? '',
          });
          token = await issueInviteToken(tx, settings, user);
          linkType = 'invite';
          break;
        case 'signup':
          if (user && isEmailConfirmed(user)) {
            throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
          }
          if (user) {
            await updateUser(tx, user.id, {
              raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data),
            });
          } else {
            user = await createEmailUser(tx, context, email, encryptedPassword, data);
          }
          token = await issueConfirmationToken(tx, settings, user);
          linkType = 'signup';
          break;
        case 'email_change_current':
        case 'email_change_new': {
          if (type === 'email_change_current' && !settings.secureEmailChange) {
            throw badRequest(
              'validation_failed',
              'Enable secure email change to generate link for current email',
            );
          }
          const newEmail = validateEmail(params.new_email);
          const duplicate = await findUserByEmail(tx, newEmail, user!.aud ?? settings.audience);
          if (duplicate && duplicate.id !== user!.id) {
            throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
          }
          token = await issueEmailChangeToken(
            tx,
            settings,
            user!,
            newEmail,
            type === 'email_change_current' ? 'current' : 'new',
          );
          linkType = 'email_change';
          break;
        }
      }
      const current = await findUserById(tx, user!.id);
      if (!current) throw internalError('Database error finding user');
      return { user: current, token, link: actionLink(settings, token.hash, linkType, redirectTo) };
    });

    return json({
      ...userJson(result.user),
      action_link: result.link,
      email_otp: result.token.otp,
      hashed_token: result.token.hash,
      verification_type: type,
      redirect_to: redirectTo,
    });
  });

  router.on('POST', '/invite', async ({ request }) => {
    const role = await requireAdmin(context, request);
    const params = await readParams(request, { email: 'string', data: 'object' });
    const email = validateEmail(params.email);
    const existing = await findUserByEmail(pool, email, settings.audience);
    const client = clientInfo(request);
    const userId = await transaction(pool, async (tx) => {
      if (existing && isEmailConfirmed(existing)) {
        throw unprocessable('email_exists', DUPLICATE_EMAIL_MESSAGE);
      }
      const user = existing ?? (await createEmailUser(tx, context, email, '', params.data ?? {}));
      await recordAudit(tx, adminActor(role), 'user_invited', client, {
        user_id: user.id,
        user_email: user.email ?? '',
      });
      await sendInvite(context, tx, user, referrerOf(request, settings));
      return user.id;
    });
    const user = await findUserById(pool, userId);
    if (!user) throw internalError('Database error finding user');
    return json(userJson(user));
  });
}
