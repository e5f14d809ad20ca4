/**
 * A short domain's privacy opt-out page, `/opt-out.html` (no alias has a dot, so no link can
 * take the address): the visitor's choice kept in the same cookie as the portal's privacy
 * opt-out (tinyStrictPrivate, link-creation 4), but on this domain, so that branded and other
 * short domains, which never see the portal's cookie, honour it too. With it, visits skip the
 * links' retargeting pixels (pixels.ts). `?opt_out=true` or `false` records a choice.
 */
import { readStrictPrivate, strictPrivateCookie } from '../../../shared/src/privacy-cookie.ts';
import { htmlPageResponse } from './pages.ts';
import { publicPath } from './route.ts';

export const OPT_OUT_PATH = '/opt-out.html';

export function isOptOutPath(pathname: string): boolean {
  return publicPath(pathname) === OPT_OUT_PATH;
}

export function optOutResponse(request: Request, url: URL, head: boolean): Response {
  const asked = url.searchParams.get('opt_out');
  const choice = asked === 'true' ? true : asked === 'false' ? false : null;
  const optedOut = choice ?? readStrictPrivate(request.headers.get('cookie') ?? '') === true;
  const headers: Record<string, string> = {};
  if (choice !== null && !head) headers['Set-Cookie'] = strictPrivateCookie(choice);
  const body = optedOut
    ? `<h1>You have opted out of tracking</h1>
<p>Short links on this domain send you straight to their destination, without their owners' retargeting pixels.</p>
<p><a class="action" href="?opt_out=false">Opt back in</a></p>`
    : `<h1>Tracking on these short links</h1>
<p>Some short links on this domain fire their owners' retargeting pixels (Meta, Google Ads, LinkedIn, TikTok) before sending you on. Robots, and browsers that send Do Not Track or Global Privacy Control, are never tracked.</p>
<p><a class="action" href="?opt_out=true">Opt out</a></p>`;
  return htmlPageResponse(200, 'Tracking on short links', body, head, headers);
}
