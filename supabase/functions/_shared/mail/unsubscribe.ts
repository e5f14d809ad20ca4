/**
 * The unsubscribe link every product e-mail carries (issue 13 item 5; migration
 * 20261122005100): the recipient's mailing token, which works without a login.
 *
 *   - in the body: the portal's `unsubscribe` page with the token, where a person confirms (and
 *     may change their mind);
 *   - in the headers, for mail clients' own "Unsubscribe" button: `List-Unsubscribe` naming the
 *     mailing-unsubscribe function with the token, and `List-Unsubscribe-Post:
 *     List-Unsubscribe=One-Click` (RFC 8058: the client POSTs there and the person is out, with
 *     no page to visit). A GET of that address only asks, so link scanners unsubscribe no one.
 */
import type { OutgoingMail } from './sender.ts';

export interface UnsubscribeLinks {
  /** The portal's page (`/app/unsubscribe?token=`). */
  page: string;
  /** The one-click endpoint (`/functions/v1/mailing-unsubscribe?token=`). */
  oneClick: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

export function unsubscribeLinks(
  token: string,
  portalOrigin: string,
  functionsBase: string,
): UnsubscribeLinks {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    page: `${portalOrigin.replace(/\/+$/, '')}/app/unsubscribe?${query}`,
    oneClick: `${functionsBase.replace(/\/+$/, '')}/functions/v1/mailing-unsubscribe?${query}`,
  };
}

/** The mail with the unsubscribe footer in both parts and the List-Unsubscribe headers. */
export function withUnsubscribe(mail: OutgoingMail, links: UnsubscribeLinks): OutgoingMail {
  return {
    ...mail,
    text: `${mail.text}\n\n--\nNo more e-mails from Shortlane: ${links.page}`,
    html: `${mail.html}\n<hr>\n<p style="font-size:12px;color:#666">No more e-mails from Shortlane? <a href="${escapeHtml(
      links.page,
    )}">Unsubscribe</a></p>`,
    headers: {
      ...mail.headers,
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
