import { randomBytes } from 'node:crypto';
import { json } from '../../http.ts';
import { recordAudit } from '../audit.ts';
import { clientInfo, type AuthContext } from '../context.ts';
import { transaction } from '../db.ts';
import { sendConfirmation, sendEmailChange, sendMagicLink, sendRecovery } from '../emails.ts';
import { badRequest, unprocessable } from '../errors.ts';
import { readParams } from '../params.ts';
import { createFlowState, flowOf, type PkceRequest } from '../pkce.ts';
import { referrerOf } from '../redirects.ts';
import type { Router } from '../router.ts';
import { findUserByEmail, isEmailConfirmed } from '../users.ts';
import { validateEmail } from '../validation.ts';
import { refuseWhenSignupsDisabled, signUpWithEmail } from './signup.ts';

/**
 * The mails a signed-out user can ask for: password recovery, another confirmation or
 * e-mail-change mail, and a magic link / e-mail code (POST /otp, POST /magiclink). None of them
 * reveals whether the address has an account.
 */
export function recoverRoutes(router: Router, context: AuthContext): void {
  const { settings, pool } = context;

  router.on('POST', '/recover', async ({ request }) => {
    context.rateLimits.take('recover', request);
    // GoTrue's requireEmailProvider middleware, before the body is read.
    if (!settings.emailSignupEnabled) {
      throw badRequest('email_provider_disabled', 'Email logins are disabled');
    }
    const params = await readParams(request, {
      email: 'string',
      code_challenge: 'string',
      code_challenge_method: 'string',
    });
    if (!params.email) {
      throw badRequest('validation_failed', 'Password recovery requires an email');
    }
    const email = validateEmail(params.email);
    const flow = flowOf(params);
    const user = await findUserByEmail(pool, email, settings.audience);
    if (!user) return json({});
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      if (flow === 'pkce') await createFlowState(tx, user.id, 'recovery', 'recovery', params);
      await recordAudit(tx, user, 'user_recovery_requested', client);
      await sendRecovery(context, tx, user, { redirectTo: referrerOf(request, settings), flow });
    });
    return json({});
  });

  router.on('POST', '/resend', async ({ request }) => {
    context.rateLimits.take('resend', request);
    const params = await readParams(request, {
      type: 'string',
      email: 'string',
      phone: 'string',
      code_challenge: 'string',
      code_challenge_method: 'string',
    });
    const type = params.type ?? '';
    if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
      throw badRequest(
        'validation_failed',
        'Missing one of these types: signup, email_change, sms, phone_change',
      );
    }
    const flow = type === 'signup' || type === 'email_change' ? flowOf(params) : 'implicit';
    if (!params.email && type === 'signup') {
      throw badRequest('validation_failed', 'Type provided requires an email address');
    }
    if (!params.phone && type === 'sms') {
      throw badRequest('validation_failed', 'Type provided requires a phone number');
    }
    if (params.email && params.phone) {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided.',
      );
    }
    if (params.phone) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    if (!params.email) {
      throw badRequest('validation_failed', 'Missing email address or phone number');
    }
    if (!settings.emailSignupEnabled) {
      throw badRequest('email_provider_disabled', 'Email logins are disabled');
    }
    const email = validateEmail(params.email);
    const user = await findUserByEmail(pool, email, settings.audience);
    if (!user) return json({});
    if (type === 'signup' && isEmailConfirmed(user)) return json({});
    if (type === 'email_change' && !user.email_change) return json({});
    if (type !== 'signup' && type !== 'email_change') return json({});

    const client = clientInfo(request);
    const mail = { redirectTo: referrerOf(request, settings), flow };
    await transaction(pool, async (tx) => {
      if (type === 'signup') {
        await recordAudit(tx, user, 'user_confirmation_requested', client);
        if (flow === 'pkce') {
          await createFlowState(tx, user.id, 'email/signup', 'email/signup', params);
        }
        await sendConfirmation(context, tx, user, mail);
      } else {
        if (flow === 'pkce') {
          await createFlowState(tx, user.id, 'email_change', 'email_change', params);
        }
        await sendEmailChange(context, tx, user, user.email_change ?? '', mail);
      }
    });
    return json({});
  });

  async function magicLink(
    request: Request,
    emailParam: string | undefined,
    data: Record<string, unknown>,
    pkce: PkceRequest,
  ): Promise<Response> {
    if (!settings.emailSignupEnabled) {
      throw unprocessable('email_provider_disabled', 'Email logins are disabled');
    }
    if (!emailParam) {
      throw unprocessable('validation_failed', 'Password recovery requires an email');
    }
    const email = validateEmail(emailParam);
    const flow = flowOf(pkce);
    const user = await findUserByEmail(pool, email, settings.audience);
    if (!user || !isEmailConfirmed(user)) {
      // A new or unconfirmed address signs up; its confirmation mail doubles as the magic link.
      refuseWhenSignupsDisabled(settings);
      const password = randomBytes(24).toString('base64url');
      await signUpWithEmail(context, request, { email, password, data, pkce });
      if (!settings.mailerAutoconfirm) return json({});
      return magicLink(request, email, data, pkce);
    }
    const client = clientInfo(request);
    await transaction(pool, async (tx) => {
      if (flow === 'pkce') await createFlowState(tx, user.id, 'magiclink', 'magiclink', pkce);
      await recordAudit(tx, user, 'user_recovery_requested', client);
      await sendMagicLink(context, tx, user, { redirectTo: referrerOf(request, settings), flow });
    });
    return json({});
  }

  router.on('POST', '/otp', async ({ request }) => {
    context.rateLimits.take('otp', request);
    const params = await readParams(request, {
      email: 'string',
      phone: 'string',
      create_user: 'boolean',
      data: 'object',
      channel: 'string',
      code_challenge: 'string',
      code_challenge_method: 'string',
    });
    if (params.email && params.phone) {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided',
      );
    }
    if (params.email && params.channel) {
      throw badRequest('validation_failed', 'Channel should only be specified with Phone OTP');
    }
    if (params.create_user === false && params.email) {
      const email = validateEmail(params.email);
      if (!(await findUserByEmail(pool, email, settings.audience))) {
        throw unprocessable('otp_disabled', 'Signups not allowed for otp');
      }
    }
    if (params.email) return magicLink(request, params.email, params.data ?? {}, params);
    if (params.phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    throw badRequest('validation_failed', 'One of email or phone must be set');
  });

  router.on('POST', '/magiclink', async ({ request }) => {
    context.rateLimits.take('magiclink', request);
    const params = await readParams(request, {
      email: 'string',
      data: 'object',
      code_challenge: 'string',
      code_challenge_method: 'string',
    });
    return magicLink(request, params.email, params.data ?? {}, params);
  });
}
