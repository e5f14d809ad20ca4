/**
 * Test support for the api deno tests (not imported by the function): the links tests' people,
 * teams and domains, plus API tokens written straight into the stack's database, and requests
 * to the handler.
 */
import { sql } from '../_shared/sql.ts';
import { suffix } from '../links/test-scene.ts';
import { shortUrlBase } from '../links/test-scene.ts';
import { type ApiDependencies, createApiHandler } from './app.ts';
import { docUrlFrom } from './errors.ts';
import { type Ability, gateInDatabase } from './gate.ts';

export {
  cleanUp,
  createDomain,
  createTeam,
  createUser,
  env,
  type SceneUser,
  shortUrlBase,
  suffix,
} from '../links/test-scene.ts';

export const DOC_BASE = 'https://docs.test';

export function apiDependencies(overrides: Partial<ApiDependencies> = {}): ApiDependencies {
  return {
    gate: gateInDatabase({ limit: 1_000_000, windowSeconds: 60 }),
    shortUrlBase,
    docUrl: docUrlFrom(DOC_BASE),
    now: () => new Date(),
    ...overrides,
  };
}

export const ALL_ABILITIES: Ability[] = [
  'links:read',
  'links:write',
  'analytics:read',
  'domains:read',
  'bulk',
];

/** A token of `accountId` minted by `userId`, stored as create_api_token stores one. */
export async function mintToken(options: {
  accountId: string;
  userId: string;
  abilities?: readonly string[];
  expiresAt?: Date | null;
}): Promise<{ id: string; token: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const token = 'slt_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const [row] = await sql()<{ id: string }[]>`
    insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
      abilities, expires_at)
    values (${options.accountId}, ${options.userId}, 'Test', sha256(convert_to(${token}, 'UTF8')),
      ${token.slice(0, 10)}, ${options.abilities ?? ALL_ABILITIES}::text[],
      ${options.expiresAt ?? null})
    returning id`;
  // Accounts without a paid plan have no API credits; tests that count them set their own.
  await sql()`
    insert into public.account_usage (account_id, name, "limit")
    values (${options.accountId}, 'max_api_credits', 1000000)
    on conflict (account_id, name) do nothing`;
  return { id: row!.id, token };
}

/** A paid plan of its own for the account (analytics on, a year of history, every feature). */
export async function givePaidPlan(accountId: string, features: readonly string[]): Promise<void> {
  const name = `api-plan-${suffix()}`;
  await sql()`
    with plan as (
      insert into public.plans (name, "group", hidden) values (${name}, 'test', true) returning id
    ), price as (
      insert into public.plan_prices (plan_id, interval, amount, features, options)
      select id, 'yearly', 1000, ${features as string[]}::text[],
        ${sql().json({ analytics_enabled: true, analytics_period: 'P1Y' })}
      from plan returning id, plan_id
    )
    insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
      billing_type, interval, amount, billing_status)
    select ${accountId}, price.plan_id, price.id, 'default', ${name}, 'test', 1, 'yearly', 1000,
      'active'
    from price`;
}

/** A staff-set limit of the account's API credits this period. */
export async function limitApiCredits(accountId: string, limit: number): Promise<void> {
  await sql()`
    insert into public.account_usage (account_id, name, "limit")
    values (${accountId}, 'max_api_credits', ${limit})
    on conflict (account_id, name) do update set "limit" = excluded."limit"`;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any -- test answers are read field by field
  body: any;
}

export type ApiHandler = ReturnType<typeof createApiHandler>;

export async function call(
  handler: ApiHandler,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  const response = await handler(
    new Request(`http://functions.test/api${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}
