/**
 * The redirect: a request on a short domain answered from cached facts, without waiting for the
 * database except on a cache miss, and with the click handed to the buffer (never awaited).
 *
 * Outcomes:
 * - unknown host, or a domain that is disabled, deleted, blocked or unverified: 404 page;
 * - the root: the domain's root redirect (302), else the home page;
 * - a visitor from a blocked IP: 403 page (before anything else is looked up);
 * - no such alias, a deleted link, a path no alias can have: the domain's 404 redirect (302), or
 *   the 404 page;
 * - expired, archived, or an inactive destination: the domain's 404 redirect if it has one (the
 *   owner's choice of where dead links go), else a 410 page saying which;
 * - terminated by staff, or a banned destination (or one the database's destination rule refuses,
 *   e.g. an internal address stored before the rule): a 410 page, always (the visitor must learn why);
 * - the account's monthly redirects used up: a 402 page (see allowance.ts);
 * - the preview route (`/preview/deprecated/{alias}` or `/{alias}+`): a 200 page showing the
 *   destination, linking through the short URL; it records nothing;
 * - otherwise the first of the link's redirect routes whose rules hold for the visitor
 *   (shared/src/routing.ts), else the link's destination, completed as destination.ts says, with
 *   the domain's status: 302 by default, 301 where the domain asks for it (a link with routes
 *   always answers 302: a browser must not keep one visitor's route). A GET records a click
 *   with the route that answered; HEAD (link checkers) and every page record nothing;
 * - a link with retargeting pixels: a GET from a browser that did not opt out (pixels.ts) gets
 *   a 200 page that fires them and then goes to that same location; the click is recorded
 *   there and then, once, as for the redirect (the page goes to the destination directly);
 * - `/opt-out.html`: the domain's privacy opt-out page (opt-out.ts); it records nothing;
 * - `/.well-known/tls-ask?domain=`: whether a host may get a certificate (tls-ask.ts), on any host.
 */
import { matchRoute, type RedirectRoute, type RouteVisitor } from '../../../shared/src/routing.ts';
import { destinationFor, visitorPairs } from './destination.ts';
import { isOptOutPath, optOutResponse } from './opt-out.ts';
import { type PageKind, pageResponse, previewResponse } from './pages.ts';
import type { DomainFacts, LinkFacts, Resolved } from './resolve.ts';
import { parseRoute, type Route } from './route.ts';
import { tlsAskResponse } from './tls-ask.ts';
import type { CapturedClick } from './clicks.ts';

export interface RedirectDependencies {
  /**
   * The domain's and link's facts; null when the host is not one of our domains. A promise only
   * when they must be looked up (a cached link is answered at once).
   */
  resolve(domain: string, alias: string): Resolved | null | Promise<Resolved | null>;
  host(request: Request): string;
  isIpBlocked(headers: Headers): boolean;
  /** The account's monthly redirects are used up (see allowance.ts). */
  redirectsBlocked(accountId: string | null): boolean;
  capture(
    request: Request,
    url: URL,
    aliasId: string,
    at: number,
    routeId: string | null,
  ): CapturedClick;
  /** What the link's routes may read of the visitor (asked only for links with routes). */
  visitor(
    request: Request,
    url: URL,
    routes: readonly RedirectRoute[],
    now: number,
  ): Promise<RouteVisitor>;
  /** Queues a click for the batch writer; must not block or throw. */
  record(click: CapturedClick): void;
  now(): number;
  /** Whether the visitor gets a link's pixels (asked only for links that have some). */
  pixelsWanted(request: Request): boolean;
  /** The page that fires the pixels, then goes to the location. */
  pixelPage(pixels: LinkFacts['pixels'], location: string): Response;
}

const REDIRECT_CACHE_CONTROL: Record<301 | 302, string> = {
  // Browsers keep a 301 forever unless told otherwise: a short lifetime keeps clicks counted
  // and edits of the destination visible.
  301: 'private, max-age=90',
  302: 'no-store',
};

function redirect(location: string, status: 301 | 302): Response {
  return new Response(null, {
    status,
    headers: {
      Location: location,
      'Cache-Control': REDIRECT_CACHE_CONTROL[status],
    },
  });
}

/** Dead ends that a domain's 404 redirect may take over. */
function notFound(domain: DomainFacts, kind: PageKind, head: boolean): Response {
  if (domain.notFoundRedirectUrl) return redirect(domain.notFoundRedirectUrl, 302);
  return pageResponse(kind, head);
}

function unavailablePage(link: LinkFacts, now: number): PageKind | null {
  switch (link.state) {
    case 'deleted':
    case 'invalid':
      return 'not-found';
    case 'terminated':
    case 'banned':
    case 'archived':
    case 'inactive':
      return link.state;
    case 'active':
      return link.expiresAt !== null && link.expiresAt <= now ? 'expired' : null;
  }
}

/** Pages a domain's 404 redirect never replaces: the visitor must see why. */
const ALWAYS_SHOWN: ReadonlySet<PageKind> = new Set(['terminated', 'banned']);

function continuePath(alias: string, addPath: string, search: string): string {
  const pairs = visitorPairs(search);
  return `/${alias}${addPath ? `/${addPath}` : ''}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

/**
 * The redirect handler. Its answer is a promise only when something must be waited for (a link
 * not cached, a visitor's country for a link's routes): a cached link is answered without one,
 * which a redirect's hot path notices. A throw is a rejected promise, as from an async function.
 */
export function createRedirectHandler(
  deps: RedirectDependencies,
): (request: Request) => Response | Promise<Response> {
  // Redirects made here since each link was loaded, for rules on its number of clicks: a reload
  // (a new LinkFacts, at most a minute later) brings the database's count and starts again.
  const redirectsSinceLoad = new WeakMap<LinkFacts, number>();

  /** The answer once the domain's and link's facts are known. */
  const answer = (
    request: Request,
    url: URL,
    route: Route,
    head: boolean,
    resolved: Resolved | null,
  ): Response | Promise<Response> => {
    if (!resolved || !resolved.domain.usable) return pageResponse('not-found', head);
    const { domain, link } = resolved;

    if (route.kind === 'root') {
      return domain.rootRedirectUrl
        ? redirect(domain.rootRedirectUrl, 302)
        : pageResponse('home', head);
    }
    if (route.kind === 'unknown' || route.kind === 'tls-ask' || !link) {
      if (route.kind === 'unknown' && isOptOutPath(url.pathname))
        return optOutResponse(request, url, head);
      return notFound(domain, 'not-found', head);
    }

    const now = deps.now();
    const unavailable = unavailablePage(link, now);
    if (unavailable) {
      return ALWAYS_SHOWN.has(unavailable)
        ? pageResponse(unavailable, head)
        : notFound(domain, unavailable, head);
    }
    if (deps.redirectsBlocked(link.accountId)) return pageResponse('limit-reached', head);

    if (route.kind === 'preview') {
      const location = destinationFor(link.destination, route.addPath, url.search);
      return previewResponse(location, continuePath(route.alias, route.addPath, url.search), head);
    }
    if (link.routes.length > 0) {
      return deps.visitor(request, url, link.routes, now).then((visitor) => {
        if (link.clicks !== null)
          visitor.clicks = link.clicks + (redirectsSinceLoad.get(link) ?? 0);
        return visit(
          request,
          url,
          route,
          head,
          domain,
          link,
          now,
          matchRoute(link.routes, visitor),
        );
      });
    }
    return visit(request, url, route, head, domain, link, now, null);
  };

  /** The redirect (or the pixels' page) to the route that matched, else the link's destination. */
  const visit = (
    request: Request,
    url: URL,
    route: Extract<Route, { kind: 'link' }>,
    head: boolean,
    domain: DomainFacts,
    link: LinkFacts,
    now: number,
    matched: RedirectRoute | null,
  ): Response => {
    const location = destinationFor(matched?.url ?? link.destination, route.addPath, url.search);
    if (!head) {
      if (link.clicks !== null)
        redirectsSinceLoad.set(link, (redirectsSinceLoad.get(link) ?? 0) + 1);
      deps.record(deps.capture(request, url, link.aliasId, now, matched?.id ?? null));
      if (link.pixels.length > 0 && deps.pixelsWanted(request))
        return deps.pixelPage(link.pixels, location);
    }
    return redirect(location, link.routes.length > 0 ? 302 : domain.redirectStatus);
  };

  const handle = (request: Request): Response | Promise<Response> => {
    const head = request.method === 'HEAD';
    if (request.method !== 'GET' && !head)
      return pageResponse('method-not-allowed', false, { Allow: 'GET, HEAD' });
    const url = new URL(request.url);
    const route = parseRoute(url.pathname);
    // Asked by the TLS front, not by a visitor: the visitors' IP block list is not for it.
    if (route.kind === 'tls-ask') return tlsAskResponse(url, deps.resolve);
    if (deps.isIpBlocked(request.headers)) return pageResponse('blocked-ip', head);

    const host = deps.host(request);
    const alias = route.kind === 'link' || route.kind === 'preview' ? route.alias : '';
    const resolved = deps.resolve(host, alias);
    return resolved instanceof Promise
      ? resolved.then((found) => answer(request, url, route, head, found))
      : answer(request, url, route, head, resolved);
  };

  return (request) => {
    try {
      return handle(request);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
