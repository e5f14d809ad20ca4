/**
 * Test support for the links deno tests (not imported by the function): people, teams, domains
 * and tokens written straight into the running stack's database, and requests to the handler.
 * Every name carries a random suffix; `cleanUp()` removes what a test file made.
 */
import { SANDBOX_SITEKEY, botCheckFromEnv } from '../_shared/bot-check/env.ts';
import { BotCheckWhitelist } from '../_shared/bot-check/whitelist.ts';
import { countryOf } from '../_shared/clicks/geo.ts';
import type { ShortUrlBase } from '../_shared/short-url.ts';
import { sql } from '../_shared/sql.ts';
import { type StackEnv, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { parseTrustedProxies } from './client-address.ts';
import { isIpBlockedInDatabase } from './destination.ts';
import { guestQuotaInDatabase } from './guest-quota.ts';
import { createLinksHandler, type LinksDependencies } from './handler.ts';

export const env: StackEnv = useStackAsRuntimeEnv();

/** Short domains on the stack's gateway, as the local stack serves them. */
export const shortUrlBase: ShortUrlBase = {
  scheme: 'http',
  port: Number(new URL(env.SUPABASE_URL).port),
};

/** As the local stack configures the function (supabase/local/src/functions/local-env.ts). */
export function stackDependencies(overrides: Partial<LinksDependencies> = {}): LinksDependencies {
  return {
    guest: {
      botCheck: botCheckFromEnv({
        get: (name) => ({ BOT_CHECK_PROVIDER: 'sandbox', SUPABASE_URL: env.SUPABASE_URL })[name],
      }),
      whitelist: BotCheckWhitelist.parse('192.0.2.0/24'),
      countryOf,
    },
    // Out of reach, as on the test stack: guest-quota tests pass a quota of their own.
    guestQuota: guestQuotaInDatabase({ limit: 1_000_000, windowSeconds: 3600 }),
    trustedProxies: parseTrustedProxies('127.0.0.0/8,::1'),
    isIpBlocked: isIpBlockedInDatabase,
    now: () => new Date(),
    shortUrlBase,
    ...overrides,
  };
}

export const suffix = () => crypto.randomUUID().slice(0, 8);

const made = { users: [] as string[], domains: [] as string[], banned: [] as string[] };

export interface SceneUser {
  id: string;
  accountId: string;
  authorization: string;
}

export async function createUser(
  options: { verified?: boolean; features?: string[] } = {},
): Promise<SceneUser> {
  const id = crypto.randomUUID();
  await sql()`
    insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at, created_at,
      updated_at)
    values (${id}, '00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated',
      ${`links-${suffix()}@example.test`}, ${options.verified === false ? null : new Date()},
      now(), now())`;
  made.users.push(id);
  const [profile] = await sql()<{ account_id: string }[]>`
    update public.accounts a set features = ${options.features ?? []}::text[]
    from public.profiles p
    where p.id = ${id} and a.id = p.personal_account_id
    returning a.id as account_id`;
  return {
    id,
    accountId: profile!.account_id,
    authorization: await userAuthorization(env, id),
  };
}

export const guestAuthorization = () => `Bearer ${env.SUPABASE_ANON_KEY}`;

export interface SceneDomain {
  id: string;
  domain: string;
}

export async function createDomain(
  options: { allowForGuests?: boolean; guestCanUseCustomAlias?: boolean; domain?: string } = {},
): Promise<SceneDomain> {
  const domain = options.domain ?? `d${suffix()}.links-fn.test`;
  const [row] = await sql()<{ id: string }[]>`
    insert into public.domains (domain, kind, allow_for_guests, guest_can_use_custom_alias,
      verification_status, verified_at)
    values (${domain}, 'common', ${options.allowForGuests ?? true},
      ${options.guestCanUseCustomAlias ?? false}, 'verified', now())
    returning id`;
  made.domains.push(row!.id);
  return { id: row!.id, domain };
}

export async function banDomain(domain: string): Promise<void> {
  await sql()`insert into public.banned_domains (domain) values (${domain})`;
  made.banned.push(domain);
}

export interface SceneTeam {
  slug: string;
  accountId: string;
  organizationSlug: string | null;
}

/** A team (in a new organization owned by `owner`, or standalone) with members by role. */
export async function createTeam(options: {
  owner: SceneUser;
  inOrganization: boolean;
  members?: { user: SceneUser; role: 'admin' | 'member' | 'viewer' }[];
  features?: string[];
}): Promise<SceneTeam> {
  let organizationId: string | null = null;
  let organizationSlug: string | null = null;
  if (options.inOrganization) {
    organizationSlug = `org-${suffix()}`;
    const [organization] = await sql()<{ id: string }[]>`
      with account as (
        insert into public.accounts (kind, owner_id, name, features)
        values ('organization', ${options.owner.id}, ${organizationSlug}, ${options.features ?? []}::text[])
        returning id
      )
      insert into public.organizations (account_id, slug, name)
      select id, ${organizationSlug}, ${organizationSlug} from account
      returning id`;
    organizationId = organization!.id;
  }
  const slug = `team-${suffix()}`;
  const [team] = await sql()<{ id: string; account_id: string }[]>`
    with account as (
      insert into public.accounts (kind, owner_id, name, features)
      values ('team', ${options.owner.id}, ${slug}, ${options.features ?? []}::text[])
      returning id
    )
    insert into public.teams (account_id, organization_id, slug, name)
    select id, ${organizationId}, ${slug}, ${slug} from account
    returning id, account_id`;
  for (const { user, role } of options.members ?? []) {
    await sql()`insert into public.team_members (team_id, user_id, role)
                values (${team!.id}, ${user.id}, ${role})`;
  }
  return { slug, accountId: team!.account_id, organizationSlug };
}

/** A fresh sandbox token, as the portal's widget gets one. */
export async function sandboxToken(): Promise<string> {
  const answer = await fetch(`${env.SUPABASE_URL}/sandbox/hcaptcha/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sitekey: SANDBOX_SITEKEY }),
  });
  const { response } = (await answer.json()) as { response: string };
  return response;
}

export interface Post {
  authorization?: string;
  forwardedFor?: string;
  method?: string;
}

export function createRequest(path: string, body: unknown, options: Post = {}): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (options.authorization) headers.set('authorization', options.authorization);
  if (options.forwardedFor) headers.set('x-forwarded-for', options.forwardedFor);
  return new Request(`http://functions.test/links/${path}`, {
    method: options.method ?? 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any -- test answers are read field by field
  body: any;
}

export async function post(
  handler: ReturnType<typeof createLinksHandler>,
  path: string,
  body: unknown,
  options: Post = {},
): Promise<Answer> {
  const response = await handler(createRequest(path, body, options));
  return { status: response.status, body: await response.json() };
}

/** Removes what this file made (accounts, teams and organizations go with their owners). */
export async function cleanUp(): Promise<void> {
  const removed = await sql()<{ long_url_id: string }[]>`
    delete from public.aliases where domain_id = any(${made.domains}::uuid[])
    returning long_url_id`;
  // Guests' destinations belong to no account, so nothing else removes them.
  await sql()`
    delete from public.long_urls u
    where u.account_id is null and u.id = any(${removed.map((row) => row.long_url_id)}::uuid[])
      and not exists (select 1 from public.aliases a where a.long_url_id = u.id)`;
  await sql()`delete from public.domains where id = any(${made.domains}::uuid[])`;
  await sql()`delete from public.banned_domains where domain = any(${made.banned}::text[])`;
  await sql()`delete from auth.users where id = any(${made.users}::uuid[])`;
  made.users = [];
  made.domains = [];
  made.banned = [];
}
