import type pg from 'pg';
import { expect } from 'vitest';
import {
  all,
  asActor,
  createPlan,
  ERROR_CODES,
  expectCoded,
  expectDatabaseError,
  expectRefused,
  isInTransaction,
  one,
  subscribe,
  uniqueSuffix,
  type Actor,
  type ErrorCode,
} from '../support/index.ts';

/**
 * Scene-setting for the link tests (as `postgres`, inside the test's transaction): domains,
 * links, plans with given features, and callers of the link RPCs with named arguments.
 */

export interface TestDomain {
  id: string;
  domain: string;
}

export interface DomainOptions {
  kind?: 'common' | 'organization' | 'branded';
  accountId?: string | null;
  baseDomainId?: string | null;
  isDisabled?: boolean;
  isDeleted?: boolean;
  isBlocked?: boolean;
  requireEmailVerification?: boolean;
  subscribedOnly?: boolean;
  allowForGuests?: boolean;
  guestCanUseCustomAlias?: boolean;
  forAllTeams?: boolean;
  verified?: boolean;
  /** Teams an organization domain applies to (when not for all teams). */
  teamIds?: string[];
  domain?: string;
}

export async function createDomain(
  client: pg.ClientBase,
  options: DomainOptions = {},
): Promise<TestDomain> {
  const domain = options.domain ?? `d${uniqueSuffix()}.links.test`;
  const verified = options.verified ?? true;
  const row = await one<{ id: string }>(
    client,
    `insert into public.domains (domain, kind, account_id, base_domain_id, is_disabled,
       is_deleted, is_blocked, require_email_verification, subscribed_only, allow_for_guests,
       guest_can_use_custom_alias, for_all_teams, verification_status, verified_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     returning id`,
    [
      domain,
      options.kind ?? 'common',
      options.accountId ?? null,
      options.baseDomainId ?? null,
      options.isDisabled ?? false,
      options.isDeleted ?? false,
      options.isBlocked ?? false,
      options.requireEmailVerification ?? false,
      options.subscribedOnly ?? false,
      options.allowForGuests ?? false,
      options.guestCanUseCustomAlias ?? false,
      options.forAllTeams ?? true,
      verified ? 'verified' : 'pending',
      verified ? new Date() : null,
    ],
  );
  for (const teamId of options.teamIds ?? []) {
    await client.query(`insert into public.domain_teams (domain_id, team_id) values ($1, $2)`, [
      row.id,
      teamId,
    ]);
  }
  return { id: row.id, domain };
}

export interface TestLink {
  id: string;
  longUrlId: string;
  alias: string;
}

export interface LinkOptions {
  accountId: string | null;
  createdBy: string | null;
  domainId: string;
  alias?: string;
  url?: string;
  status?: string;
  organizationId?: string | null;
  expiresAt?: Date | null;
  createdAt?: Date;
  tags?: string[];
}

/** A link written directly (no RPC rules): the scene for reads, updates and rollups. */
export async function createLink(client: pg.ClientBase, options: LinkOptions): Promise<TestLink> {
  const alias = options.alias ?? `l${uniqueSuffix()}`;
  const url = options.url ?? `https://example.com/${alias}`;
  const longUrl = await one<{ id: string }>(
    client,
    `insert into public.long_urls (account_id, url) values ($1, $2)
     on conflict (account_id, md5(url)) do update set updated_at = now()
     returning id`,
    [options.accountId, url],
  );
  const link = await one<{ id: string }>(
    client,
    `insert into public.aliases (long_url_id, account_id, domain_id, alias, status, created_by,
       organization_id, expires_at, is_main, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8,
       not exists (select 1 from public.aliases a where a.long_url_id = $1 and a.is_main),
       coalesce($9, now()))
     returning id`,
    [
      longUrl.id,
      options.accountId,
      options.domainId,
      alias,
      options.status ?? 'active',
      options.createdBy,
      options.organizationId ?? null,
      options.expiresAt ?? null,
      options.createdAt ?? null,
    ],
  );
  for (const name of options.tags ?? []) {
    await client.query(
      `with tag as (
         insert into public.tags (account_id, name) values ($1, $2)
         on conflict (account_id, name) do update set name = excluded.name
         returning id
       )
       insert into public.alias_tags (alias_id, tag_id, account_id)
       select $3, tag.id, $1 from tag`,
      [options.accountId, name, link.id],
    );
  }
  return { id: link.id, longUrlId: longUrl.id, alias };
}

/** Puts an account on a plan of its own with these features and options. */
export async function givePlan(
  client: pg.ClientBase,
  accountId: string,
  plan: { features?: string[]; options?: Record<string, unknown> } = {},
): Promise<void> {
  const created = await createPlan(client, plan);
  await subscribe(client, { accountId, plan: created });
}

/** Every feature the link rules ask about. */
export const LINK_FEATURES = [
  'use_custom_alias',
  'use_tags',
  'manage_expiration',
  'use_branded_domains',
  'change_long_url',
  'use_bulk',
  'redirect_routes',
  'download_logs',
  'use_api',
  'add_branded_domains',
];

export interface CreateLinkArgs {
  url?: string | null;
  domain?: string | null;
  alias?: string | null;
  aliasIsRandom?: boolean;
  accountId?: string | null;
  organizationId?: string | null;
  tags?: string[] | null;
  description?: string | null;
  expiresAt?: Date | null;
}

const CREATE_LINK_PARAMS: Record<keyof CreateLinkArgs, string> = {
  url: 'p_url',
  domain: 'p_domain',
  alias: 'p_alias',
  aliasIsRandom: 'p_alias_is_random',
  accountId: 'p_account_id',
  organizationId: 'p_organization_id',
  tags: 'p_tags',
  description: 'p_description',
  expiresAt: 'p_expires_at',
};

export interface CreatedAlias {
  id: string;
  domain: string;
  alias: string;
  tiny_url: string;
  is_main: boolean;
  status: string;
  tags: string[];
  expires_at: string | null;
  description: string | null;
  account_id: string | null;
  organization_id: string | null;
}

export interface CreatedItem {
  url: string;
  aliases: CreatedAlias[];
}

/** Calls an RPC with named arguments, passing only those given. */
export async function callRpc<T>(
  client: pg.ClientBase,
  name: string,
  params: Record<string, unknown>,
): Promise<T> {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined);
  const args = entries.map(([param], index) => `${param} => $${index + 1}`).join(', ');
  const row = await one<{ result: T }>(
    client,
    `select public.${name}(${args}) as result`,
    entries.map(([, value]) => value),
  );
  return row.result;
}

export async function callCreateLink(
  client: pg.ClientBase,
  args: CreateLinkArgs,
): Promise<CreatedItem[]> {
  const params = Object.fromEntries(
    Object.entries(args).map(([key, value]) => [
      CREATE_LINK_PARAMS[key as keyof CreateLinkArgs],
      value,
    ]),
  );
  // A random alias is only trusted from the links edge function, which marks its transaction.
  if (args.aliasIsRandom) {
    await client.query(`select set_config('shortlane.trusted_alias_draw', 'on', true)`);
  }
  return callRpc<CreatedItem[]>(client, 'create_link', params);
}

export interface UpdateLinkArgs {
  alias?: string | null;
  url?: string | null;
  tags?: string[] | null;
  expiresAt?: Date | null;
  removeExpiry?: boolean;
  description?: string | null;
}

export async function callUpdateLink(
  client: pg.ClientBase,
  aliasId: string,
  args: UpdateLinkArgs,
): Promise<CreatedItem> {
  return callRpc<CreatedItem>(client, 'update_link', {
    p_alias_id: aliasId,
    p_alias: args.alias,
    p_url: args.url,
    p_tags: args.tags,
    p_expires_at: args.expiresAt,
    p_remove_expiry: args.removeExpiry,
    p_description: args.description,
  });
}

/** The alias of the single created item (create_link answers an array of one). */
export function createdAlias(items: CreatedItem[]): CreatedAlias {
  expect(items).toHaveLength(1);
  const alias = items[0]?.aliases[0];
  if (!alias) throw new Error('create_link answered no alias');
  return alias;
}

let serviceSavepoint = 0;

/**
 * Runs fn as an edge function would with the service-role key and no user (how guests' links
 * are created, after the anti-robot check). Nests a savepoint inside the test's transaction.
 */
export async function asServiceRole<T>(
  client: pg.ClientBase,
  fn: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  if (!isInTransaction(client)) throw new Error('asServiceRole needs withRollback');
  const savepoint = `service_${++serviceSavepoint}`;
  await client.query(`savepoint ${savepoint}`);
  const reset = async () =>
    client.query(`reset role; select set_config('request.jwt.claims', '', true)`);
  try {
    await client.query(`set local role service_role`);
    await client.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', true)`);
    const result = await fn(client);
    await client.query(`release savepoint ${savepoint}`);
    await reset();
    return result;
  } catch (error) {
    await client.query(`rollback to savepoint ${savepoint}`);
    await reset();
    throw error;
  }
}

/** Codes the link area adds to the contract's table. */
const LINK_ERROR_CODES = {
  description_too_long: {
    status: 422,
    detail: 'The description must not be greater than 1000 characters.',
    hint: 'description',
  },
  route_rule_invalid: { status: 422, detail: undefined, hint: undefined },
  feature_not_allowed: {
    status: 403,
    detail: 'Your plan does not allow this feature.',
    hint: 'form',
  },
  abilities_invalid: {
    status: 422,
    detail: 'The selected abilities are invalid.',
    hint: 'abilities',
  },
} as const;

export type LinkErrorCode = ErrorCode | keyof typeof LINK_ERROR_CODES;

/** Like expectCoded, for the contract's codes and the link area's own. */
export async function expectLinkError(
  promise: Promise<unknown>,
  code: LinkErrorCode,
  overrides: { detail?: string; hint?: string } = {},
): Promise<pg.DatabaseError> {
  if (code in ERROR_CODES) return expectCoded(promise, code as ErrorCode, overrides);
  const expected: { status: number; detail?: string; hint?: string } =
    LINK_ERROR_CODES[code as keyof typeof LINK_ERROR_CODES];
  const error = await expectDatabaseError(promise);
  expect({ code: error.code, message: error.message }).toEqual({
    code: `PT${expected.status}`,
    message: code,
  });
  const detail = overrides.detail ?? expected.detail;
  const hint = overrides.hint ?? expected.hint;
  if (detail !== undefined) expect(error.detail).toBe(detail);
  if (hint !== undefined) expect(error.hint).toBe(hint);
  return error;
}

/** The ids a query returns, sorted, to compare visibility sets. */
export async function ids(client: pg.ClientBase, sql: string, params: unknown[] = []) {
  const rows = await all<{ id: string }>(client, sql, params);
  return rows.map((row) => row.id).sort();
}

/**
 * A statement the actor is refused (grants or row-level security). Each runs in its own
 * asActor: after an error the transaction accepts no further statement until rolled back.
 */
export function expectRefusedAs(
  client: pg.ClientBase,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<pg.DatabaseError> {
  return asActor(client, actor, (as) => expectRefused(as.query(sql, params)));
}
