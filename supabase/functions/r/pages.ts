/**
 * The small pages a short domain answers instead of a redirect: one per reason, plain HTML with
 * a heading, a sentence and a way on, readable without scripts or images, marked noindex, with
 * a strict Content-Security-Policy (nothing but inline styles may load).
 */

export type PageKind =
  | 'home'
  | 'not-found'
  | 'expired'
  | 'archived'
  | 'inactive'
  | 'terminated'
  | 'banned'
  | 'blocked-ip'
  | 'limit-reached'
  | 'method-not-allowed';

interface PageText {
  status: number;
  title: string;
  message: string;
}

export const PAGES: Record<PageKind, PageText> = {
  home: {
    status: 200,
    title: 'Short links by Shortlane',
    message: 'This domain serves short links. Add a link’s alias to the address to visit it.',
  },
  'not-found': {
    status: 404,
    title: 'Link not found',
    message: 'There is no short link at this address. Check it for typos.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    message: 'The owner of this short link set it to stop working after a date that has passed.',
  },
  archived: {
    status: 410,
    title: 'This link is no longer active',
    message: 'The owner of this short link has archived it.',
  },
  inactive: {
    status: 410,
    title: 'This link is no longer active',
    message: 'The destination of this short link has been switched off.',
  },
  terminated: {
    status: 410,
    title: 'This link has been disabled',
    message: 'This short link was disabled for breaking our terms of service.',
  },
  banned: {
    status: 410,
    title: 'This link has been blocked',
    message: 'This short link points to a site we block to keep visitors safe.',
  },
  'blocked-ip': {
    status: 403,
    title: 'Access refused',
    message: 'Requests from your network to our short links are blocked.',
  },
  'limit-reached': {
    status: 402,
    title: 'This link is paused',
    message:
      'The owner of this short link has used up this month’s redirects on their plan. Try again later.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    message: 'Short links only answer GET and HEAD requests.',
  },
};

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex',
  'Cache-Control': 'no-store',
};

// Contrast: #1a1a1a on #ffffff and #0b57d0 links both pass WCAG AA for body text.
const STYLE = `
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:36rem;margin:12vh auto;padding:0 1.25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .75rem}
a{color:#0b57d0}
a:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.destination{word-break:break-all;padding:.75rem;background:#f1f3f4;border-radius:.375rem}
.action{display:inline-block;margin-top:1rem;padding:.5rem 1rem;background:#0b57d0;color:#fff;border-radius:.375rem;text-decoration:none}
`;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Shortlane</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function respond(status: number, html: string, head: boolean, headers: HeadersInit = {}) {
  const merged = new Headers(PAGE_HEADERS);
  for (const [name, value] of new Headers(headers)) merged.set(name, value);
  return new Response(head ? null : html, { status, headers: merged });
}

/** A page of this look with its own heading and body (HTML the caller has escaped). */
export function htmlPageResponse(
  status: number,
  title: string,
  body: string,
  head = false,
  headers: HeadersInit = {},
): Response {
  return respond(status, document(title, body), head, headers);
}

/** The page for a reason; HEAD gets the same status and headers without the body. */
export function pageResponse(kind: PageKind, head = false, headers: HeadersInit = {}): Response {
  const { status, title, message } = PAGES[kind];
  const html = document(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
  return respond(status, html, head, headers);
}

/**
 * The preview route's page: where the link goes (the full address and its domain), that it
 * passed the safety checks (only a link that would redirect gets here: banned and refused
 * destinations answer their own page), and a Visit link through the short URL itself (so the
 * visit that follows is redirected and counted like any other). The link's redirect routes may
 * send some visitors elsewhere; the page shows the destination every other visitor gets.
 */
export function previewResponse(destination: string, continuePath: string, head = false) {
  const host = (() => {
    try {
      return new URL(destination).host;
    } catch {
      return destination;
    }
  })();
  const html = document(
    'Link preview',
    `<h1>This short link goes to ${escapeHtml(host)}</h1>
<p>Check the full address before you continue:</p>
<p class="destination"><code>${escapeHtml(destination)}</code></p>
<p>Domain: <strong>${escapeHtml(host)}</strong></p>
<p class="safety">Safe: this destination passed our safety checks (not on our block list, not an internal address).</p>
<p><a class="action" href="${escapeHtml(continuePath)}" rel="noreferrer">Visit</a></p>`,
  );
  return respond(200, html, head);
}
