/**
 * Who calls the API, and whether they may: the bearer token goes to app.begin_api_call
 * (migration 20261122002700), which in one statement finds the token, counts the call against
 * the token's rate limit, checks the route's ability, the creator's `api` permission and the
 * plan's use_api, and spends one API credit — nothing spent on a refusal before it. Here the
 * outcome becomes the catalogue's status, with the X-RateLimit-* headers on every answer.
 */
import { MESSAGES } from '../../../shared/src/messages.ts';
import { sql } from '../_shared/sql.ts';
import { API_MESSAGES, apiError } from './errors.ts';

import type { Ability } from './abilities.ts';

export { ABILITIES, type Ability } from './abilities.ts';

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

export interface TokenContext {
  tokenId: string;
  /** The account the token belongs to: every query is confined to it. */
  accountId: string;
  /** A team's organization (create_link's p_organization_id), or null. */
  organizationId: string | null;
  /** Who minted the token: the API acts as them, under row-level security. */
  userId: string;
  abilities: string[];
}

interface GateAnswer {
  outcome:
    | 'ok'
    | 'unauthenticated'
    | 'rate_limited'
    | 'ability_missing'
    | 'permission_denied'
    | 'feature_not_allowed'
    | 'not_enough_credits';
  token_id?: string;
  account_id?: string;
  organization_id?: string | null;
  user_id?: string;
  abilities?: string[];
  rate?: { limit: number; remaining: number; reset: number };
}

export type Gate = (token: string, ability: Ability) => Promise<GateAnswer>;

export const gateInDatabase =
  (rate: RateLimit): Gate =>
  async (token, ability) => {
    const [row] = await sql()<{ answer: GateAnswer }[]>`
      select app.begin_api_call(${token}, ${ability}, ${rate.limit},
        make_interval(secs => ${rate.windowSeconds})) as answer`;
    return row!.answer;
  };

/** The bearer token of the request, or a 401. */
export function bearerToken(request: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (!match?.[1]) throw apiError(401, 'unauthenticated', API_MESSAGES.unauthenticated);
  return match[1];
}

export function rateLimitHeaders(rate: GateAnswer['rate']): Record<string, string> {
  if (!rate) return {};
  return {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset),
  };
}

/** Admits the call or throws its refusal (with the rate-limit headers once the token is known). */
export async function admit(
  gate: Gate,
  request: Request,
  ability: Ability,
): Promise<{ context: TokenContext; headers: Record<string, string> }> {
  const answer = await gate(bearerToken(request), ability);
  const headers = rateLimitHeaders(answer.rate);
  const refuse = (status: number, code: string, message: string, extra = {}) =>
    apiError(status, code, message, { ...headers, ...extra });
  switch (answer.outcome) {
    case 'ok':
      return {
        context: {
          tokenId: answer.token_id!,
          accountId: answer.account_id!,
          organizationId: answer.organization_id ?? null,
          userId: answer.user_id!,
          abilities: answer.abilities ?? [],
        },
        headers,
      };
    case 'unauthenticated':
      throw refuse(401, 'unauthenticated', API_MESSAGES.unauthenticated);
    case 'rate_limited':
      throw refuse(429, 'rate_limited', API_MESSAGES.rateLimited, {
        'Retry-After': String(answer.rate?.reset ?? 1),
      });
    case 'ability_missing':
      throw refuse(403, 'ability_missing', API_MESSAGES.abilityMissing);
    case 'permission_denied':
      throw refuse(403, 'permission_denied', MESSAGES.permissionDenied);
    case 'feature_not_allowed':
      throw refuse(403, 'feature_not_allowed', API_MESSAGES.featureNotAllowed);
    case 'not_enough_credits':
      throw refuse(402, 'not_enough_credits', MESSAGES.notEnoughCredits);
  }
}
