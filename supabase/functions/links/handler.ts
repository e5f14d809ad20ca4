/**
 * The `links` function: single link creation on the routes of link-creation section 7 (see
 * routes.ts). In order, cheapest refusal first:
 *
 * 1. the route and method; who calls (a guest with the anon key, or a signed-in user); whether
 *    staff blocked the caller's address (kiosk "ips");
 * 2. the body (request.ts): unknown fields, wrong types, the form's rules and the destination's
 *    text, per field (no I/O: hostile URLs stop here);
 * 3. for guests, the per-address quota (guest-quota.ts), then CCPA and the bot check (guest.ts);
 * 4. the workspace and public.create_link in one transaction as the caller (guests: as the
 *    service role, which is why the bot check comes first), random aliases drawn and retried.
 *    The database holds the destination rule (app.judge_destination): it refuses our own and
 *    banned domains, and stores its normalised form; step 2 only spares it hostile text.
 */
import { AliasExhaustedError, type UniqueAliasOptions } from '../_shared/alias.ts';
import { callerOf } from '../_shared/caller.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import type { ShortUrlBase } from '../_shared/short-url.ts';
import { asCaller, asClaims, type CallerSql } from '../_shared/sql.ts';
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { clientAddress, forwardedAddresses, type TrustedProxies } from './client-address.ts';
import { insertLink, type LinkDraft, resolvePlacement } from './create.ts';
import type { IpBlockCheck } from './destination.ts';
import { codedDatabaseError, fieldError, refusalFromDatabase } from './errors.ts';
import { admitGuest, type GuestChecks } from './guest.ts';
import { type GuestQuotaCheck, guestQuotaExceeded } from './guest-quota.ts';
import { readLinkRequest } from './request.ts';
import { createdItems } from './response.ts';
import { matchCreateRoute, type Workspace } from './routes.ts';

export interface LinksDependencies {
  guest: GuestChecks;
  /** Counts a guest's attempt against the per-address quota (guest-quota.ts). */
  guestQuota: GuestQuotaCheck;
  trustedProxies: TrustedProxies;
  isIpBlocked: IpBlockCheck;
  now: () => Date;
  /** Where short domains are served: the answer's tiny_url (SHORT_URL_BASE). */
  shortUrlBase: ShortUrlBase;
  /** Random alias draws (tests pass a fixed sequence to force collisions). */
  aliasOptions?: UniqueAliasOptions;
}

const permissionDenied = () =>
  fieldError(403, 'permission_denied', 'form', ERROR_CODES.permission_denied.message);

const ipBlocked = () =>
  fieldError(403, 'ip_blocked', 'form', ERROR_CODES.permission_denied.message);

/** On the organization routes the address names the workspace; a body team may only agree. */
function checkBodyTeam(workspace: Workspace, team: string | null): void {
  if (team === null || workspace.kind === 'own') return;
  if (workspace.kind === 'organization-team' && team === workspace.team) return;
  throw fieldError(404, 'unknown_team', 'team', MESSAGES.unknownTeam);
}

/** Database and alias failures as the answers the form maps; anything else stays a bug (500). */
function asRefusal(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const coded = codedDatabaseError(error);
  if (coded) return refusalFromDatabase(coded);
  if (error instanceof AliasExhaustedError) {
    console.error(`links: ${error.message}`);
    return fieldError(503, 'alias_exhausted', 'form', MESSAGES.somethingWentWrong);
  }
  return error;
}

export function createLinksHandler(
  deps: LinksDependencies,
): (request: Request) => Promise<Response> {
  return handler(async (request) => {
    const workspace = matchCreateRoute(new URL(request.url).pathname);
    if (!workspace) throw new HttpError(404, MESSAGES.notFound, 'not_found');
    if (request.method !== 'POST')
      return json({ code: 'method_not_allowed', message: 'Method Not Allowed' }, 405, {
        Allow: 'POST, OPTIONS',
      });

    const { claims } = callerOf(request);
    const guest = claims.role === 'anon';
    const user = claims.role === 'authenticated' && typeof claims.sub === 'string';
    // The service role has no person behind it: it calls create_link directly if it must.
    if (!guest && !user) throw permissionDenied();
    if (await deps.isIpBlocked(forwardedAddresses(request.headers))) throw ipBlocked();

    const input = await readLinkRequest(request, deps.now());
    if (guest && (workspace.kind !== 'own' || input.team !== null)) throw permissionDenied();
    checkBodyTeam(workspace, input.team);

    if (guest) {
      const clientIp = clientAddress(request.headers, deps.trustedProxies);
      const retryAfter = await deps.guestQuota(clientIp);
      if (retryAfter > 0) throw guestQuotaExceeded(retryAfter);
      await admitGuest(deps.guest, {
        clientIp,
        antiRobotToken: input.antiRobotToken,
        ccpaAccepted: input.ccpaAccepted,
      });
    }
    const draft: LinkDraft = {
      url: input.destination.url,
      domain: input.domain,
      alias: input.alias,
      tags: input.tags,
      description: input.description,
      expiresAt: input.expiresAt,
    };
    const create = async (tx: CallerSql) =>
      insertLink(tx, draft, await resolvePlacement(tx, workspace, input.team), deps.aliasOptions);
    try {
      const items = guest
        ? await asClaims({ role: 'service_role' }, create)
        : await asCaller(request, create);
      return json(createdItems(items, deps.shortUrlBase));
    } catch (error) {
      throw asRefusal(error);
    }
  });
}
