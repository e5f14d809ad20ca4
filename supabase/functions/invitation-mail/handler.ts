/**
 * invitation-mail: mails an invitation's link (issue 16, item 4).
 *
 *   POST { invitation_id }  → 200 { sent: true, expires_at }
 *
 * The caller's own client asks Postgres for a fresh link token (public.issue_invitation_token:
 * only the inviter or whoever manages the invitation's target gets one, and only for a pending
 * invitation), then the mail goes out through the configured sender (_shared/mail). Postgres
 * keeps only the token's hash; the raw token exists in this request and in the mail.
 *
 * The link points at the portal the inviter used (its Origin), when INVITATION_LINK_ORIGINS
 * allows it, so a request cannot make the mail link anywhere else.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { allowedReturnOrigin } from '../billing/return-origin.ts';
import { callerOf } from '../_shared/caller.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import { permissionDenied } from '../_shared/kiosk/staff.ts';
import { type MailSender, mailSenderFromEnv } from '../_shared/mail/sender.ts';
import { unsubscribeLinks, withUnsubscribe } from '../_shared/mail/unsubscribe.ts';
import { requireEnv } from '../_shared/env.ts';
import { sql } from '../_shared/sql.ts';
import { callerClient } from '../_shared/supabase.ts';
import { invitationLink, invitationMail, type IssuedInvitation } from './message.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface InvitationMailDeps {
  client: (request: Request) => SupabaseClient;
  sender: () => MailSender;
  linkOrigins: () => string;
  /** The mailing token of the account with this address; null when none has it. */
  unsubscribeToken: (email: string) => Promise<string | null>;
  /** Where the one-click unsubscribe function answers (the project's public URL). */
  functionsBase: () => string;
}

/** The mailing token of the account with this address (app.mailing_unsubscribe_token_for_email). */
export async function mailingTokenFor(email: string): Promise<string | null> {
  const [row] = await sql()<{ token: string | null }[]>`
    select app.mailing_unsubscribe_token_for_email(${email}) as token`;
  return row?.token ?? null;
}

const defaults: InvitationMailDeps = {
  client: callerClient,
  sender: () => mailSenderFromEnv(),
  linkOrigins: () => Deno.env.get('INVITATION_LINK_ORIGINS') ?? '',
  unsubscribeToken: mailingTokenFor,
  functionsBase: () => requireEnv('SUPABASE_URL'),
};

async function readInvitationId(request: Request): Promise<string> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw invalid('invitation_id', 'The body must be JSON.');
  }
  const id = (body as { invitation_id?: unknown } | null)?.invitation_id;
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw invalid('invitation_id', 'The invitation_id must be an invitation id (UUID).');
  }
  return id;
}

export function createInvitationMailHandler(deps: InvitationMailDeps = defaults) {
  return handler(async (request) => {
    if (request.method !== 'POST') {
      throw new HttpError(405, 'Use POST', 'method_not_allowed');
    }
    const { claims } = callerOf(request);
    if (claims.role !== 'authenticated') throw permissionDenied();
    const origin = allowedReturnOrigin(request.headers.get('Origin'), deps.linkOrigins());
    if (!origin) {
      throw new HttpError(403, 'Invitations are sent from the portal only.', 'origin_not_allowed');
    }
    const invitationId = await readInvitationId(request);
    const { data, error, status } = await deps
      .client(request)
      .rpc('issue_invitation_token', { p_invitation_id: invitationId });
    // The database's coded refusal, as PostgREST gave it (the portal maps it like any RPC's).
    if (error) return json(error, status >= 400 ? status : 500);
    const issued = (data as IssuedInvitation[] | null)?.[0];
    if (!issued) throw new Error('issue_invitation_token answered no row');
    const mail = invitationMail(issued, invitationLink(origin, issued.token));
    // Someone who already has an account gets the unsubscribe link every product mail carries;
    // an address nobody signed up with has nothing to unsubscribe from.
    const token = await deps.unsubscribeToken(issued.email);
    await deps
      .sender()
      .send(
        token ? withUnsubscribe(mail, unsubscribeLinks(token, origin, deps.functionsBase())) : mail,
      );
    return json({ sent: true, expires_at: issued.expires_at });
  });
}
