/**
 * Product mail (invitations today; every one carries the unsubscribe link of unsubscribe.ts): one interface, the sender chosen by MAIL_PROVIDER.
 *
 *   mailpit  POST {MAILPIT_URL}/api/v1/send, Mailpit's send API. The local stack's mail catcher
 *            speaks it, as does the Mailpit `supabase start` runs: development mail never leaves
 *            the machine, and tests read it where they read Auth's.
 *   resend   POST https://api.resend.com/emails with RESEND_API_KEY: production.
 *
 * MAIL_FROM is the sender address of both. Auth's own mails (sign-up, recovery) are sent by
 * Auth; this is for the mails the product writes.
 */
import { requireEnv } from '../env.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post: unsubscribe.ts). */
  headers?: Record<string, string>;
}

export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}

export const MAIL_PROVIDERS = ['mailpit', 'resend'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

type Fetch = typeof fetch;

/** A failed send: the provider's status and answer, for the operator's log. */
export class MailSendError extends Error {
  constructor(
    readonly provider: MailProvider,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${provider} refused the mail (${status}): ${body.slice(0, 300)}`);
    this.name = 'MailSendError';
  }
}

async function post(
  provider: MailProvider,
  doFetch: Fetch,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<void> {
  const response = await doFetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new MailSendError(provider, response.status, text);
}

/** "Name <address>" or a bare address, as Mailpit's { Email, Name }. */
export function mailpitAddress(value: string): { Email: string; Name?: string } {
  const named = /^\s*(.*?)\s*<([^<>\s]+)>\s*$/.exec(value);
  if (!named) return { Email: value.trim() };
  return named[1] ? { Email: named[2]!, Name: named[1] } : { Email: named[2]! };
}

export function mailpitSender(baseUrl: string, from: string, doFetch: Fetch = fetch): MailSender {
  const url = new URL('/api/v1/send', baseUrl).toString();
  return {
    send: (mail) =>
      post('mailpit', doFetch, url, {
        From: mailpitAddress(from),
        To: [{ Email: mail.to }],
        Subject: mail.subject,
        Text: mail.text,
        HTML: mail.html,
        ...(mail.headers ? { Headers: mail.headers } : {}),
      }),
  };
}

export function resendSender(apiKey: string, from: string, doFetch: Fetch = fetch): MailSender {
  return {
    send: (mail) =>
      post(
        'resend',
        doFetch,
        'https://api.resend.com/emails',
        {
          from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.headers ? { headers: mail.headers } : {}),
        },
        { Authorization: `Bearer ${apiKey}` },
      ),
  };
}

/** The sender the environment names; a missing or unknown MAIL_PROVIDER stops with its name. */
export function mailSenderFromEnv(
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): MailSender {
  const provider = env('MAIL_PROVIDER');
  const from = env('MAIL_FROM') || 'Shortlane <noreply@shortlane.localhost>';
  const need = (name: string) => env(name) || requireEnv(name);
  switch (provider) {
    case 'mailpit':
      return mailpitSender(need('MAILPIT_URL'), from);
    case 'resend':
      return resendSender(need('RESEND_API_KEY'), from);
    default:
      throw new Error(
        `The environment variable MAIL_PROVIDER must be one of ${MAIL_PROVIDERS.join(
          ', ',
        )} (got ${provider ?? 'nothing'})`,
      );
  }
}
