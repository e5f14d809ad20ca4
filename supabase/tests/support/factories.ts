import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { one } from './db.ts';

/**
 * Factories that set the scene as `postgres` (no RLS) inside a test's transaction. Every name,
 * slug and e-mail carries a random suffix: test files run in parallel against one database and
 * must never wait on each other's unique keys.
 */

export const uniqueSuffix = () => randomUUID().slice(0, 8);

export interface TestUser {
  id: string;
  email: string;
  personalAccountId: string;
}

export interface UserOptions {
  email?: string;
  name?: string;
  /** E-mail confirmed (default true). */
  confirmed?: boolean;
  /** The developer flag: staff. */
  developer?: boolean;
  /** Profile status bit flags (4, 8, 16). */
  status?: number;
}

/** A user in auth.users as GoTrue would insert one; the trigger adds profile and account. */
export async function createUser(
  client: pg.ClientBase,
  options: UserOptions = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${uniqueSuffix()}@shortlane.test`;
  const user = await one<{ id: string }>(
    client,
    `insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'authenticated',
       'authenticated', $1, case when $2 then now() end,
       '{"provider":"email","providers":["email"]}', jsonb_build_object('name', $3::text),
       now(), now())
     returning id`,
    [email, options.confirmed ?? true, options.name ?? email.split('@')[0]],
  );
  const profile = await one<{ personal_account_id: string }>(
    client,
    `update public.profiles set is_developer = $2, status = $3 where id = $1
     returning personal_account_id`,
    [user.id, options.developer ?? false, options.status ?? 0],
  );
  return { id: user.id, email, personalAccountId: profile.personal_account_id };
}

/**
 * Several users, one per options object, made one after another: a pg client runs one query at
 * a time, and `Promise.all` over one client queues them anyway while pg warns that pg@9 will
 * refuse a query sent before the last one ended.
 */
export async function createUsers<const Options extends readonly UserOptions[]>(
  client: pg.ClientBase,
  options: Options,
): Promise<{ [Index in keyof Options]: TestUser }> {
  const users: TestUser[] = [];
  for (const each of options) users.push(await createUser(client, each));
  return users as { [Index in keyof Options]: TestUser };
}

async function createAccount(
  client: pg.ClientBase,
  kind: 'team' | 'organization',
  ownerId: string,
  name: string,
  features: string[],
): Promise<string> {
  const row = await one<{ id: string }>(
    client,
    `insert into public.accounts (kind, owner_id, name, features) values ($1, $2, $3, $4)
     returning id`,
    [kind, ownerId, name, features],
  );
  return row.id;
}

export interface TestOrganization {
  id: string;
  accountId: string;
  slug: string;
  ownerId: string;
}

export async function createOrganization(
  client: pg.ClientBase,
  options: { ownerId: string; name?: string; slug?: string; features?: string[] },
): Promise<TestOrganization> {
  const slug = options.slug ?? `org-${uniqueSuffix()}`;
  const name = options.name ?? `Organization ${slug}`;
  const accountId = await createAccount(
    client,
    'organization',
    options.ownerId,
    name,
    options.features ?? [],
  );
  const row = await one<{ id: string }>(
    client,
    `insert into public.organizations (account_id, slug, name) values ($1, $2, $3) returning id`,
    [accountId, slug, name],
  );
  return { id: row.id, accountId, slug, ownerId: options.ownerId };
}

export interface TestRole {
  id: string;
  permissions: string[];
}

export async function createOrganizationRole(
  client: pg.ClientBase,
  options: { organizationId: string; permissions: string[]; name?: string },
): Promise<TestRole> {
  const row = await one<{ id: string }>(
    client,
    `insert into public.organization_roles (organization_id, name, permissions)
     values ($1, $2, $3) returning id`,
    [options.organizationId, options.name ?? `Role ${uniqueSuffix()}`, options.permissions],
  );
  return { id: row.id, permissions: options.permissions };
}

export async function addOrganizationUser(
  client: pg.ClientBase,
  options: { organizationId: string; userId: string; roleId: string },
): Promise<void> {
  await client.query(
    `insert into public.organization_users (organization_id, user_id, role_id) values ($1, $2, $3)`,
    [options.organizationId, options.userId, options.roleId],
  );
}

export interface TestTeam {
  id: string;
  accountId: string;
  slug: string;
  organizationId: string | null;
}

/** A team owned by ownerId, inside an organization or standalone. */
export async function createTeam(
  client: pg.ClientBase,
  options: {
    ownerId: string;
    organizationId?: string | null;
    name?: string;
    slug?: string;
    features?: string[];
  },
): Promise<TestTeam> {
  const slug = options.slug ?? `team-${uniqueSuffix()}`;
  const name = options.name ?? `Team ${slug}`;
  const accountId = await createAccount(
    client,
    'team',
    options.ownerId,
    name,
    options.features ?? [],
  );
  const row = await one<{ id: string }>(
    client,
    `insert into public.teams (account_id, organization_id, slug, name) values ($1, $2, $3, $4)
     returning id`,
    [accountId, options.organizationId ?? null, slug, name],
  );
  return { id: row.id, accountId, slug, organizationId: options.organizationId ?? null };
}

export type TeamRole = 'admin' | 'member' | 'viewer';

export async function addTeamMember(
  client: pg.ClientBase,
  options: { teamId: string; userId: string; role: TeamRole },
): Promise<void> {
  await client.query(
    `insert into public.team_members (team_id, user_id, role) values ($1, $2, $3)`,
    [options.teamId, options.userId, options.role],
  );
}

export interface InvitationOptions {
  inviterId: string;
  email: string;
  /** A team invitation (with teamRole) or an organization one (with organizationRoleId). */
  teamId?: string;
  teamRole?: TeamRole;
  organizationId?: string;
  organizationRoleId?: string;
  message?: string;
}

export async function createInvitation(
  client: pg.ClientBase,
  options: InvitationOptions,
): Promise<{ id: string }> {
  return one<{ id: string }>(
    client,
    `insert into public.invitations
       (inviter_id, email, team_id, team_role, organization_id, organization_role_id, message)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      options.inviterId,
      options.email,
      options.teamId ?? null,
      options.teamRole ?? null,
      options.organizationId ?? null,
      options.organizationRoleId ?? null,
      options.message ?? null,
    ],
  );
}

export interface TestPlan {
  planId: string;
  priceId: string;
  name: string;
}

/** A plan of its own for a test, with one price carrying the given features and options. */
export async function createPlan(
  client: pg.ClientBase,
  options: {
    features?: string[];
    options?: Record<string, unknown>;
    amount?: number;
    interval?: 'monthly' | 'yearly';
    hidden?: boolean;
  } = {},
): Promise<TestPlan> {
  const name = `plan-${uniqueSuffix()}`;
  const plan = await one<{ id: string }>(
    client,
    `insert into public.plans (name, "group", hidden) values ($1, 'test', $2) returning id`,
    [name, options.hidden ?? false],
  );
  const price = await one<{ id: string }>(
    client,
    `insert into public.plan_prices (plan_id, interval, amount, features, options)
     values ($1, $2, $3, $4, $5) returning id`,
    [
      plan.id,
      options.interval ?? 'yearly',
      options.amount ?? 1000,
      options.features ?? [],
      JSON.stringify(options.options ?? {}),
    ],
  );
  return { planId: plan.id, priceId: price.id, name };
}

export interface SubscriptionOptions {
  accountId: string;
  plan: TestPlan;
  billingStatus?: string | null;
  trialEndsAt?: Date | null;
  periodStartsAt?: Date | null;
  endsAt?: Date | null;
  type?: 'default' | 'addon' | 'shopping-cart';
}

export async function subscribe(
  client: pg.ClientBase,
  options: SubscriptionOptions,
): Promise<{ id: string }> {
  return one<{ id: string }>(
    client,
    `insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
       billing_type, interval, amount, currency, billing_status, trial_ends_at, period_starts_at,
       ends_at)
     select $1, p.id, pp.id, $3, p.name, p."group", 1, pp.interval, pp.amount, pp.currency, $4,
       $5, $6, $7
     from public.plans p join public.plan_prices pp on pp.plan_id = p.id
     where pp.id = $2
     returning id`,
    [
      options.accountId,
      options.plan.priceId,
      options.type ?? 'default',
      options.billingStatus ?? 'active',
      options.trialEndsAt ?? null,
      options.periodStartsAt ?? null,
      options.endsAt ?? null,
    ],
  );
}

/** A verified TOTP factor, as Auth stores one after a successful enrollment. */
export async function enrollTotp(db: pg.ClientBase, userId: string): Promise<string> {
  const row = await one<{ id: string }>(
    db,
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
       updated_at, secret)
     values (gen_random_uuid(), $1, 'Phone', 'totp', 'verified', now(), now(),
       'JBSWY3DPEHPK3PXP')
     returning id`,
    [userId],
  );
  return row.id;
}
