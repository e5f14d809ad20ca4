/**
 * mailing-unsubscribe: the address product e-mails name in `List-Unsubscribe`
 * (_shared/mail/unsubscribe.ts), open to anyone holding a mailing token (no login, no apikey:
 * mail clients send neither).
 *
 *   POST ?token=…  (body `List-Unsubscribe=One-Click`, RFC 8058) → 200: the person no longer
 *                  receives product e-mails (public.set_mailings_by_link, status flag 8)
 *   GET  ?token=…  → 200 a page with one button that POSTs the same; a GET changes nothing, so
 *                  link scanners and previews unsubscribe no one
 *
 * An unknown or malformed token is 404 with the database's message.
 */
import { handler, HttpError } from '../_shared/http.ts';
import { sql } from '../_shared/sql.ts';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

function page(title: string, body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(
      title,
    )}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:4rem auto"><h1>${escapeHtml(
      title,
    )}</h1>${body}</body></html>`,
    {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // The page's one form posts to this same address; nothing else runs.
        'content-security-policy': "default-src 'none'; form-action 'self'",
      },
    },
  );
}

export interface UnsubscribeDeps {
  /** public.set_mailings_by_link(token, false): the masked address, or a coded refusal. */
  unsubscribe: (token: string) => Promise<{ email: string }>;
}

const defaults: UnsubscribeDeps = {
  unsubscribe: async (token) => {
    const [row] = await sql()<{ result: { email: string } }[]>`
      select public.set_mailings_by_link(${token}, false) as result`;
    return row!.result;
  },
};

export function createMailingUnsubscribe(deps: UnsubscribeDeps = defaults) {
  return handler(async (request) => {
    const token = new URL(request.url).searchParams.get('token') ?? '';
    if (request.method === 'GET') {
      return page(
        'Unsubscribe from Shortlane e-mails',
        `<p>Stop receiving product e-mails from Shortlane at this address?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    }
    if (request.method !== 'POST') {
      throw new HttpError(405, 'Use POST', 'method_not_allowed');
    }
    try {
      const { email } = await deps.unsubscribe(token);
      return page(
        'You are unsubscribed',
        `<p>${escapeHtml(
          email,
        )} no longer receives product e-mails from Shortlane. You can turn them on again in your settings.</p>`,
      );
    } catch (error) {
      const coded = error as { message?: string; detail?: string };
      if (coded.message === 'unsubscribe_link_invalid') {
        return page('This link is not valid', `<p>${escapeHtml(coded.detail ?? '')}</p>`, 404);
      }
      throw error;
    }
  });
}

export const mailingUnsubscribe = createMailingUnsubscribe();
