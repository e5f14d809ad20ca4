/**
 * The visitor as redirect routes see it (shared/src/routing.ts's RouteVisitor), built only for
 * links that have routes, and only as far as their rules read: the country costs a GeoIP lookup,
 * so it is looked up only when some rule asks for it. User-Agents and addresses repeat, so both
 * are memoised.
 */
import { clientIp, referrerHost } from '../_shared/clicks/click.ts';
import { countryOf } from '../_shared/clicks/geo.ts';
import { parseUserAgent, type UserAgentInfo } from '../_shared/clicks/user-agent.ts';
import {
  preferredLanguage,
  type RedirectRoute,
  type RouteVisitor,
  routesRead,
} from '../../../shared/src/routing.ts';
import { Memo } from './memo.ts';

/** ua-parser-js's names where the builder offers other words. */
const OS_NAMES: Record<string, string> = { 'Mac OS': 'macOS' };

export class VisitorReader {
  readonly #agents = new Memo<UserAgentInfo>(4_096);
  readonly #countries = new Memo<Promise<string | null>>(16_384);

  #country(headers: Headers): Promise<string | null> {
    const ip = clientIp(headers);
    if (ip === null) return Promise.resolve(null);
    return this.#countries.get(ip, (key) => countryOf(key).catch(() => null));
  }

  async read(
    request: Request,
    url: URL,
    routes: readonly RedirectRoute[],
    now: number,
  ): Promise<RouteVisitor> {
    const headers = request.headers;
    const agent = this.#agents.get(headers.get('user-agent') ?? '', parseUserAgent);
    const os = agent.os === null ? null : (OS_NAMES[agent.os] ?? agent.os);
    return {
      country: routesRead(routes, 'country') ? await this.#country(headers) : null,
      device: agent.device,
      os,
      browser: agent.browser,
      language: preferredLanguage(headers.get('accept-language')),
      referrer: referrerHost(headers.get('referer')),
      search: url.search,
      now,
      clicks: null,
    };
  }
}
