import type { AuthContext } from './context.ts';
import type { Db } from './db.ts';
import { tooManyRequests } from './errors.ts';
import { renderAuthMail, type AuthMailKind } from './mail-templates.ts';
import {
  generateOtp,
  storeOneTimeToken,
  tokenHash,
  type OneTimeTokenType,
} from './one-time-tokens.ts';
import type { AuthSettings } from './settings.ts';
import { goQueryEscape } from './urls.ts';
import { withFlowPrefix, type FlowType } from './pkce.ts';
import { emailOf, updateUser, type UserChanges, type UserRow } from './users.ts';

/**
 * Issuing the tokens e-mails carry, and sending those e-mails. Each kind of token lives in a
 * "slot" of auth.users (token column + sent-at column) mirrored in auth.one_time_tokens.
 */

/** The `type` a /verify link carries. */
export type LinkType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change';

interface Slot {
  token: 'confirmation_token' | 'recovery_token' | 'reauthentication_token';
  sentAt: 'confirmation_sent_at' | 'recovery_sent_at' | 'reauthentication_sent_at';
  oneTimeToken: OneTimeTokenType;
}

const CONFIRMATION: Slot = {
  token: 'confirmation_token',
  sentAt: 'confirmation_sent_at',
  oneTimeToken: 'confirmation_token',
};
const RECOVERY: Slot = {
  token: 'recovery_token',
  sentAt: 'recovery_sent_at',
  oneTimeToken: 'recovery_token',
};
const REAUTHENTICATION: Slot = {
  token: 'reauthentication_token',
  sentAt: 'reauthentication_sent_at',
  oneTimeToken: 'reauthentication_token',
};

export interface IssuedToken {
  otp: string;
  /** The stored token: the hash, with `pkce_` in front for the PKCE flow. */
  hash: string;
}

/** Where the mail's link leads, and which flow the requesting client runs. */
export interface MailRequest {
  redirectTo: string;
  flow: FlowType;
}

/** GoTrue escapes redirect_to only when it is not already escaped (has a raw &, = or #). */
function encodeRedirect(redirectTo: string): string {
  return /[&=#]/.test(redirectTo) ? goQueryEscape(redirectTo) : redirectTo;
}

export function actionLink(
  settings: AuthSettings,
  token: string,
  type: LinkType,
  redirectTo: string,
): string {
  return `${settings.externalUrl}/verify?token=${goQueryEscape(token)}&type=${goQueryEscape(type)}&redirect_to=${encodeRedirect(redirectTo)}`;
}

/** GoTrue's max_frequency: one mail of a kind per interval per user. */
function assertSendable(settings: AuthSettings, sentAt: Date | null): void {
  if (!sentAt) return;
  const readyAt = sentAt.getTime() + settings.emailMaxFrequencyMs;
  if (readyAt > Date.now()) {
    const seconds = Math.trunc((readyAt - Date.now()) / 1000);
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    );
  }
}

/** The project's hourly e-mail limit (rate-limits.ts), counted once per mail request. */
function countEmail(context: AuthContext): void {
  context.rateLimits.takeEmail(context.settings.mailerAutoconfirm);
}

async function issue(
  db: Db,
  settings: AuthSettings,
  user: UserRow,
  slot: Slot,
  flow: FlowType,
  extra: UserChanges = {},
): Promise<IssuedToken> {
  const otp = generateOtp(settings.otpLength);
  const hash = withFlowPrefix(tokenHash(emailOf(user), otp), flow);
  await updateUser(db, user.id, { [slot.token]: hash, [slot.sentAt]: new Date(), ...extra });
  await storeOneTimeToken(db, user.id, slot.oneTimeToken, hash, emailOf(user));
  return { otp, hash };
}

export const issueConfirmationToken = (
  db: Db,
  settings: AuthSettings,
  user: UserRow,
  flow: FlowType = 'implicit',
) => issue(db, settings, user, CONFIRMATION, flow);
export const issueInviteToken = (db: Db, settings: AuthSettings, user: UserRow) =>
  issue(db, settings, user, CONFIRMATION, 'implicit', { invited_at: new Date() });
export const issueRecoveryToken = (
  db: Db,
  settings: AuthSettings,
  user: UserRow,
  flow: FlowType = 'implicit',
) => issue(db, settings, user, RECOVERY, flow);

export interface EmailChangeTokens {
  newAddress: IssuedToken;
  /** Only when double_confirm_changes asks the current address to confirm too. */
  currentAddress?: IssuedToken;
}

/** Records a pending change to `newEmail` with the given token hashes (others left as they are). */
async function storeEmailChange(
  db: Db,
  user: UserRow,
  newEmail: string,
  hashes: { current?: string; new?: string },
): Promise<void> {
  await updateUser(db, user.id, {
    email_change: newEmail,
    ...(hashes.new !== undefined ? { email_change_token_new: hashes.new } : {}),
    ...(hashes.current !== undefined ? { email_change_token_current: hashes.current } : {}),
    email_change_sent_at: new Date(),
    email_change_confirm_status: 0,
  });
  if (hashes.new) {
    await storeOneTimeToken(db, user.id, 'email_change_token_new', hashes.new, newEmail);
  }
  if (hashes.current) {
    await storeOneTimeToken(
      db,
      user.id,
      'email_change_token_current',
      hashes.current,
      emailOf(user),
    );
  }
}

function issueFor(settings: AuthSettings, address: string, flow: FlowType): IssuedToken {
  const otp = generateOtp(settings.otpLength);
  return { otp, hash: withFlowPrefix(tokenHash(address, otp), flow) };
}

/** The tokens of an e-mail change mail: one for the new address, one for the current if asked. */
export async function issueEmailChangeTokens(
  db: Db,
  settings: AuthSettings,
  user: UserRow,
  newEmail: string,
  flow: FlowType,
): Promise<EmailChangeTokens> {
  const newAddress = issueFor(settings, newEmail, flow);
  const currentAddress =
    settings.secureEmailChange && emailOf(user) !== ''
      ? issueFor(settings, emailOf(user), flow)
      : undefined;
  await storeEmailChange(db, user, newEmail, {
    new: newAddress.hash,
    current: currentAddress?.hash ?? '',
  });
  return { newAddress, currentAddress };
}

/** One side's token, for generate_link: the other side's pending token stays valid. */
export async function issueEmailChangeToken(
  db: Db,
  settings: AuthSettings,
  user: UserRow,
  newEmail: string,
  side: 'current' | 'new',
): Promise<IssuedToken> {
  const token = issueFor(settings, side === 'new' ? newEmail : emailOf(user), 'implicit');
  await storeEmailChange(db, user, newEmail, { [side]: token.hash });
  return token;
}

async function deliver(
  context: AuthContext,
  kind: AuthMailKind,
  to: string,
  token: IssuedToken,
  link: { type: LinkType; redirectTo: string } | undefined,
  newEmail?: string,
): Promise<void> {
  await context.mailer.send(
    renderAuthMail(kind, {
      to,
      otp: token.otp,
      tokenHash: token.hash,
      confirmationUrl: link
        ? actionLink(context.settings, token.hash, link.type, link.redirectTo)
        : undefined,
      newEmail,
    }),
  );
}

export async function sendConfirmation(
  context: AuthContext,
  db: Db,
  user: UserRow,
  { redirectTo, flow }: MailRequest,
): Promise<void> {
  assertSendable(context.settings, user.confirmation_sent_at);
  countEmail(context);
  const token = await issueConfirmationToken(db, context.settings, user, flow);
  await deliver(context, 'confirmation', emailOf(user), token, { type: 'signup', redirectTo });
}

export async function sendInvite(
  context: AuthContext,
  db: Db,
  user: UserRow,
  redirectTo: string,
): Promise<void> {
  countEmail(context);
  const token = await issueInviteToken(db, context.settings, user);
  await deliver(context, 'invite', emailOf(user), token, { type: 'invite', redirectTo });
}

export async function sendRecovery(
  context: AuthContext,
  db: Db,
  user: UserRow,
  { redirectTo, flow }: MailRequest,
): Promise<void> {
  assertSendable(context.settings, user.recovery_sent_at);
  countEmail(context);
  const token = await issueRecoveryToken(db, context.settings, user, flow);
  await deliver(context, 'recovery', emailOf(user), token, { type: 'recovery', redirectTo });
}

/** Magic links share the recovery slot (and its rate limit), as in GoTrue. */
export async function sendMagicLink(
  context: AuthContext,
  db: Db,
  user: UserRow,
  { redirectTo, flow }: MailRequest,
): Promise<void> {
  assertSendable(context.settings, user.recovery_sent_at);
  countEmail(context);
  const token = await issueRecoveryToken(db, context.settings, user, flow);
  await deliver(context, 'magic_link', emailOf(user), token, { type: 'magiclink', redirectTo });
}

export async function sendEmailChange(
  context: AuthContext,
  db: Db,
  user: UserRow,
  newEmail: string,
  { redirectTo, flow }: MailRequest,
): Promise<void> {
  assertSendable(context.settings, user.email_change_sent_at);
  countEmail(context);
  const tokens = await issueEmailChangeTokens(db, context.settings, user, newEmail, flow);
  const link = { type: 'email_change' as const, redirectTo };
  await deliver(context, 'email_change', newEmail, tokens.newAddress, link, newEmail);
  if (tokens.currentAddress) {
    await deliver(context, 'email_change', emailOf(user), tokens.currentAddress, link, newEmail);
  }
}

export async function sendReauthentication(
  context: AuthContext,
  db: Db,
  user: UserRow,
): Promise<void> {
  assertSendable(context.settings, user.reauthentication_sent_at);
  countEmail(context);
  const token = await issue(db, context.settings, user, REAUTHENTICATION, 'implicit');
  await context.mailer.send(
    renderAuthMail('reauthentication', { to: emailOf(user), otp: token.otp }),
  );
}
