/**
 * Retargeting pixels on short links (issue 17 item 4): a visit to a link that carries pixels is
 * answered with a minimal page that runs each provider's standard snippet, built here around
 * the stored id (checked again against the provider's format: never anything else), and then
 * goes on to the destination within a second — by script, by a meta refresh where scripts do
 * not run, and by a visible link.
 *
 * Visitors who ask not to be tracked get the plain redirect: robots (the click writer's own
 * test, isbot, and no User-Agent at all), `DNT: 1`, `Sec-GPC: 1`, and the privacy opt-out
 * cookie (tinyStrictPrivate=true, link-creation 4).
 *
 * The page's Content-Security-Policy allows scripts only by this response's nonce (and what
 * they load, 'strict-dynamic'), and images, requests and frames only to the hosts of the
 * providers on the page.
 */
import { isBotUserAgent } from '../_shared/clicks/user-agent.ts';
import { type LinkPixel, parseLinkPixel, type PixelProvider } from '../../../shared/src/pixels.ts';
import { readStrictPrivate } from '../../../shared/src/privacy-cookie.ts';
import { Memo } from './memo.ts';
import { OPT_OUT_PATH } from './opt-out.ts';
import { escapeHtml, PAGE_HEADERS } from './pages.ts';

/** How long the page waits for the pixels before it goes on (script), and the meta refresh's. */
export const PIXEL_REDIRECT_DELAY_MS = 600;
const META_REFRESH_SECONDS = 1;

const bots = new Memo<boolean>(4_096);

/** Whether this visitor gets the pixel page: a browser that did not opt out. */
export function pixelsWanted(request: Request): boolean {
  const headers = request.headers;
  if (headers.get('dnt')?.trim() === '1' || headers.get('sec-gpc')?.trim() === '1') return false;
  const cookies = headers.get('cookie');
  if (cookies !== null && readStrictPrivate(cookies) === true) return false;
  const agent = headers.get('user-agent') ?? '';
  // A missing User-Agent counts as a robot, as in the click writer.
  return agent !== '' && !bots.get(agent.slice(0, 512), isBotUserAgent);
}

interface ProviderHosts {
  script: readonly string[];
  img: readonly string[];
  connect: readonly string[];
  frame: readonly string[];
}

const HOSTS: Record<PixelProvider, ProviderHosts> = {
  meta: {
    script: ['https://connect.facebook.net'],
    img: ['https://www.facebook.com'],
    connect: ['https://www.facebook.com', 'https://connect.facebook.net'],
    frame: [],
  },
  google_ads: {
    script: [
      'https://www.googletagmanager.com',
      'https://www.googleadservices.com',
      'https://googleads.g.doubleclick.net',
      'https://www.google.com',
    ],
    img: [
      'https://www.google.com',
      'https://google.com',
      'https://googleads.g.doubleclick.net',
      'https://www.googleadservices.com',
      'https://www.googletagmanager.com',
    ],
    connect: [
      'https://www.google.com',
      'https://google.com',
      'https://googleads.g.doubleclick.net',
      'https://www.googleadservices.com',
      'https://pagead2.googlesyndication.com',
      'https://www.googletagmanager.com',
    ],
    frame: ['https://bid.g.doubleclick.net', 'https://td.doubleclick.net'],
  },
  linkedin: {
    script: ['https://snap.licdn.com'],
    img: ['https://px.ads.linkedin.com'],
    connect: ['https://px.ads.linkedin.com'],
    frame: [],
  },
  tiktok: {
    script: ['https://analytics.tiktok.com'],
    img: ['https://analytics.tiktok.com'],
    connect: ['https://analytics.tiktok.com'],
    frame: [],
  },
};

/** A string as a JavaScript literal that is safe inside a <script> element. */
function jsString(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The providers' standard base code, each around its id (already checked: digits, capitals, AW-). */
function snippet(pixel: LinkPixel, nonce: string): { head: string; noscript: string } {
  const id = jsString(pixel.id);
  switch (pixel.provider) {
    case 'meta':
      return {
        head: `<script nonce="${nonce}">!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${id});fbq('track','PageView');</script>`,
        noscript: `<img height="1" width="1" alt="" src="https://www.facebook.com/tr?id=${encodeURIComponent(pixel.id)}&amp;ev=PageView&amp;noscript=1">`,
      };
    case 'google_ads':
      return {
        head: `<script nonce="${nonce}" async src="https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(pixel.id)}"></script>
<script nonce="${nonce}">window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config',${id});</script>`,
        noscript: '',
      };
    case 'linkedin':
      return {
        head: `<script nonce="${nonce}">window._linkedin_data_partner_ids=window._linkedin_data_partner_ids||[];window._linkedin_data_partner_ids.push(${id});(function(l){if(!l){window.lintrk=function(a,b){window.lintrk.q.push([a,b])};window.lintrk.q=[]}var s=document.getElementsByTagName('script')[0];var b=document.createElement('script');b.type='text/javascript';b.async=true;b.src='https://snap.licdn.com/li.lms-analytics/insight.min.js';s.parentNode.insertBefore(b,s);})(window.lintrk);</script>`,
        noscript: `<img height="1" width="1" alt="" src="https://px.ads.linkedin.com/collect/?pid=${encodeURIComponent(pixel.id)}&amp;fmt=gif">`,
      };
    case 'tiktok':
      return {
        head: `<script nonce="${nonce}">!function(w,d,t){w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=['page','track','identify','instances','debug','on','off','once','ready','alias','group','enableCookie','disableCookie'];ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e};ttq.load=function(e,n){var i='https://analytics.tiktok.com/i18n/pixel/events.js';ttq._i=ttq._i||{};ttq._i[e]=[];ttq._i[e]._u=i;ttq._t=ttq._t||{};ttq._t[e]=+new Date;ttq._o=ttq._o||{};ttq._o[e]=n||{};var o=d.createElement('script');o.type='text/javascript';o.async=!0;o.src=i+'?sdkid='+e+'&lib='+t;var a=d.getElementsByTagName('script')[0];a.parentNode.insertBefore(o,a)};ttq.load(${id});ttq.page();}(window,document,'ttq');</script>`,
        noscript: '',
      };
  }
}

function sources(pixels: readonly LinkPixel[], kind: keyof ProviderHosts): string {
  const hosts = new Set(pixels.flatMap((pixel) => HOSTS[pixel.provider][kind]));
  return hosts.size === 0 ? "'none'" : [...hosts].join(' ');
}

export function pixelPagePolicy(pixels: readonly LinkPixel[], nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' ${sources(pixels, 'script')}`,
    `img-src ${sources(pixels, 'img')}`,
    `connect-src ${sources(pixels, 'connect')}`,
    `frame-src ${sources(pixels, 'frame')}`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

const STYLE =
  'body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}main{max-width:36rem;margin:12vh auto;padding:0 1.25rem}h1{font-size:1.25rem;margin:0 0 .75rem}a{color:#0b57d0}a:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}';

/**
 * The page that fires the link's pixels and goes on to `destination` (an http(s) address:
 * resolve.ts never lets another through). Ids are checked once more here, so that whatever the
 * cache holds, only a provider-shaped id reaches the script.
 */
export function pixelPageResponse(
  pixels: readonly LinkPixel[],
  destination: string,
  nonce: string = newNonce(),
): Response {
  const checked = pixels.flatMap((pixel) => parseLinkPixel(pixel) ?? []);
  const parts = checked.map((pixel) => snippet(pixel, nonce));
  const host = (() => {
    try {
      return new URL(destination).host;
    } catch {
      return destination;
    }
  })();
  const href = escapeHtml(destination);
  const noscript = parts.map((part) => part.noscript).filter((tag) => tag !== '');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta http-equiv="refresh" content="${META_REFRESH_SECONDS};url=${href}">
<title>Redirecting to ${escapeHtml(host)} · Shortlane</title>
<style>${STYLE}</style>
${parts.map((part) => part.head).join('\n')}
<script nonce="${nonce}">setTimeout(function(){location.replace(${jsString(destination)})},${PIXEL_REDIRECT_DELAY_MS});</script>
</head>
<body>
<main>
<h1>Redirecting to ${escapeHtml(host)}</h1>
<p>If nothing happens, <a href="${href}" rel="noreferrer">continue to ${escapeHtml(host)}</a>.</p>
<p><a href="${OPT_OUT_PATH}">Opt out of tracking on these short links</a></p>
${noscript.length > 0 ? `<noscript>${noscript.join('')}</noscript>` : ''}
</main>
</body>
</html>
`;
  const headers = new Headers(PAGE_HEADERS);
  headers.set('Content-Security-Policy', pixelPagePolicy(checked, nonce));
  return new Response(html, { status: 200, headers });
}
