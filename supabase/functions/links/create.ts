/**
 * The database side of creating a link, inside one transaction as the caller (or as the service
 * role for a guest, after the bot check): find the workspace the address and body name, then
 * call public.create_link, which applies every rule of the data model (domain selectability,
 * plan features, limits, credits, alias and tag formats).
 *
 * Random aliases are drawn here (base62 from the CSPRNG, _shared/alias.ts) and handed to the RPC
 * as random, so they need no custom-alias permission; the RPC answers a taken one with a 409
 * (random_alias_taken) and the next draw is tried inside a savepoint of the same transaction.
 */
import { MESSAGES } from '../../../shared/src/messages.ts';
import {
  ALIAS_COLLISION,
  type AliasCollision,
  createWithUniqueAlias,
  type UniqueAliasOptions,
} from '../_shared/alias.ts';
import type { CallerSql } from '../_shared/sql.ts';
import { codedDatabaseError, fieldError, ORGANIZATION_NOT_FOUND } from './errors.ts';
import type { Workspace } from './routes.ts';

/**
 * The link as the RPC's app.link_json builds it; the answer keeps only the spec's fields, and
 * builds tiny_url itself (response.ts).
 */
export interface RpcCreatedAlias {
  domain: string;
  alias: string;
  is_main: boolean;
  tags: string[];
  affiliates: unknown[];
  [more: string]: unknown;
}

export interface RpcCreatedItem {
  url: string;
  aliases: RpcCreatedAlias[];
}

export interface LinkDraft {
  url: string;
  domain: string;
  /** The caller's own alias, or null to draw a random one. */
  alias: string | null;
  tags: string[];
  description: string | null;
  expiresAt: string | null;
}

/** Where the link goes: create_link's p_account_id and p_organization_id. */
export interface Placement {
  /** A team's account, or null for the caller's personal one (always null for guests). */
  accountId: string | null;
  /** Organization mode for a personal link; a team link takes its team's organization. */
  organizationId: string | null;
}

const unknownTeam = () => fieldError(404, 'unknown_team', 'team', MESSAGES.unknownTeam);
const organizationNotFound = () =>
  fieldError(404, 'organization_not_found', 'form', ORGANIZATION_NOT_FOUND);

/**
 * The workspace by slug, as the caller sees it (row-level security decides: a team or an
 * organization they cannot see does not exist for them). Whether they may create links there is
 * the RPC's decision.
 */
export async function resolvePlacement(
  tx: CallerSql,
  workspace: Workspace,
  teamSlug: string | null,
): Promise<Placement> {
  if (workspace.kind === 'own') {
    if (teamSlug === null) return { accountId: null, organizationId: null };
    // Outside the organization routes only standalone teams are addressed by slug alone.
    const [team] = await tx<{ account_id: string }[]>`
      select t.account_id from public.teams t
      where t.organization_id is null and t.slug = ${teamSlug}`;
    if (!team) throw unknownTeam();
    return { accountId: team.account_id, organizationId: null };
  }
  const team = workspace.kind === 'organization-team' ? workspace.team : null;
  const [found] = await tx<{ organization_id: string; team_account_id: string | null }[]>`
    select o.id as organization_id, t.account_id as team_account_id
    from public.organizations o
    left join public.teams t on t.organization_id = o.id and t.slug = ${team}
    where o.slug = ${workspace.organization}`;
  if (!found) throw organizationNotFound();
  if (team === null) return { accountId: null, organizationId: found.organization_id };
  if (!found.team_account_id) throw unknownTeam();
  return { accountId: found.team_account_id, organizationId: found.organization_id };
}

function callCreateLink(
  tx: CallerSql,
  draft: LinkDraft,
  placement: Placement,
  alias: string | null,
  aliasIsRandom: boolean,
) {
  // Marks this transaction as the edge function's own draw (see migration
  // 20261122001095_trusted_alias_draw.sql); set_config's `true` keeps it local to the transaction.
  // Sent together with the call (the connection runs them in order): one round trip, not two.
  const marked = aliasIsRandom
    ? tx`select set_config('shortlane.trusted_alias_draw', 'on', true)`.execute()
    : Promise.resolve();
  const created = tx<{ items: RpcCreatedItem[] }[]>`
    select public.create_link(
      p_url => ${draft.url},
      p_domain => ${draft.domain},
      p_alias => ${alias},
      p_alias_is_random => ${aliasIsRandom},
      p_account_id => ${placement.accountId}::uuid,
      p_organization_id => ${placement.organizationId}::uuid,
      p_tags => ${draft.tags}::text[],
      p_description => ${draft.description},
      p_expires_at => ${draft.expiresAt}::timestamptz
    ) as items`;
  return Promise.all([marked, created]).then(([, [row]]) => row?.items ?? []);
}

/** The RPC's answer to a random alias that is taken: draw again. */
export function isRandomAliasCollision(error: unknown): boolean {
  const coded = codedDatabaseError(error);
  return coded?.status === 409 && coded.code === 'alias_taken';
}

/**
 * Creates the link. Database refusals propagate as thrown errors (see errors.ts to map them);
 * AliasExhaustedError when every random draw was taken.
 */
export async function insertLink(
  tx: CallerSql,
  draft: LinkDraft,
  placement: Placement,
  aliasOptions: UniqueAliasOptions = {},
): Promise<RpcCreatedItem[]> {
  if (draft.alias !== null) return await callCreateLink(tx, draft, placement, draft.alias, false);
  const { result } = await createWithUniqueAlias(
    async (alias): Promise<RpcCreatedItem[] | AliasCollision> => {
      try {
        // A failed statement would abort the whole transaction; the savepoint keeps it usable.
        return await tx.savepoint((attempt) =>
          callCreateLink(attempt, draft, placement, alias, true),
        );
      } catch (error) {
        if (isRandomAliasCollision(error)) return ALIAS_COLLISION;
        throw error;
      }
    },
    aliasOptions,
  );
  return result;
}
