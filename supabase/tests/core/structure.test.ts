import { describe, expect, it } from 'vitest';
import { readSupabaseConfig } from '../../local/src/supabase-config.ts';
import { all, useDatabase } from '../support/index.ts';

/**
 * Rules that hold for every table and helper, whoever wrote the migration (data-model contract):
 * RLS everywhere the API reaches, private helpers out of anonymous reach and pinned to an empty
 * search_path, no anonymous writes, no TRUNCATE (it bypasses RLS), and policies written the way
 * ARCHITECTURE.md asks.
 */
const pool = useDatabase();

const api = readSupabaseConfig().api as { schemas: string[] };
const exposedSchemas = api.schemas;

describe('database structure', () => {
  it('exposes at least the public schema through the API (sanity check of the config read)', () => {
    expect(exposedSchemas).toContain('public');
  });

  it('enables row-level security on every table in an exposed schema', async () => {
    const tables = await all<{ name: string; rls: boolean }>(
      pool,
      `select c.oid::regclass::text as name, c.relrowsecurity as rls
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = any ($1) and c.relkind in ('r', 'p')`,
      [exposedSchemas],
    );
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((t) => !t.rls).map((t) => t.name)).toEqual([]);
  });

  it('lets anonymous callers execute no function in the private app schema', async () => {
    const executable = await all<{ fn: string }>(
      pool,
      `select p.oid::regprocedure::text as fn
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'app' and has_function_privilege('anon', p.oid, 'execute')`,
    );
    expect(executable).toEqual([]);
  });

  it('makes every app function security definer with an empty search_path', async () => {
    const functions = await all<{
      fn: string;
      definer: boolean;
      config: string[] | null;
      trigger: boolean;
    }>(
      pool,
      `select p.oid::regprocedure::text as fn, p.prosecdef as definer, p.proconfig as config,
         p.prorettype = 'trigger'::regtype as trigger
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'app'`,
    );
    expect(functions.length).toBeGreaterThan(10);
    expect(functions.filter((f) => !f.config?.includes('search_path=""')).map((f) => f.fn)).toEqual(
      [],
    );
    // Trigger functions cannot be called directly; column guards must run as the invoker to see
    // whether an API role (rather than an RPC) is writing, so they alone may be invokers.
    expect(functions.filter((f) => !f.definer && !f.trigger).map((f) => f.fn)).toEqual([]);
  });

  it('keeps the app schema out of the API', () => {
    expect(exposedSchemas).not.toContain('app');
  });

  it('gives anonymous callers no write on any table, and nobody TRUNCATE', async () => {
    const grants = await all<{ grantee: string; table_name: string; privilege_type: string }>(
      pool,
      `select grantee, table_schema || '.' || table_name as table_name, privilege_type
       from information_schema.role_table_grants
       where table_schema = any ($1)
         and ((grantee = 'anon' and privilege_type in ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'))
           or (grantee = 'authenticated' and privilege_type = 'TRUNCATE'))`,
      [exposedSchemas],
    );
    expect(grants).toEqual([]);
  });

  it('lets anonymous callers execute only public RPCs meant for guests', async () => {
    // Every RPC is revoked from anon unless guests need it; this list says which do.
    const anonRpcs = await all<{ fn: string }>(
      pool,
      `select p.proname as fn
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute')
         and p.proname in ('switch_team', 'leave_team_mode', 'accept_invitation',
           'reject_invitation', 'archive_organization', 'create_organization', 'create_team',
           'mark_notifications_read', 'mark_announcements_read')`,
    );
    expect(anonRpcs).toEqual([]);
  });

  it('names policies as sentences and wraps auth.uid() in a select', async () => {
    const policies = await all<{
      table: string;
      name: string;
      qual: string | null;
      check: string | null;
    }>(
      pool,
      `select schemaname || '.' || tablename as table, policyname as name, qual,
         with_check as check
       from pg_policies where schemaname = any ($1)`,
      [exposedSchemas],
    );
    expect(policies.length).toBeGreaterThan(40);
    const unnamed = policies.filter((p) => !/^[A-Z][^ ]*( [^ ]+)+$/.test(p.name));
    expect(unnamed.map((p) => `${p.table}: ${p.name}`)).toEqual([]);
    // Deparsed, `(select auth.uid())` reads `( SELECT auth.uid() AS uid)`; a bare call would be
    // evaluated once per row.
    const bare = policies.filter((p) =>
      [p.qual, p.check].some((expr) => expr && /(?<!SELECT )auth\.uid\(\)/.test(expr)),
    );
    expect(bare.map((p) => `${p.table}: ${p.name}`)).toEqual([]);
  });

  it('never opens tenant data (tables with an owning column) with a bare `true` policy', async () => {
    const open = await all<{ name: string }>(
      pool,
      `select p.schemaname || '.' || p.tablename || ': ' || p.policyname as name
       from pg_policies p
       where p.schemaname = any ($1) and (p.qual = 'true' or p.with_check = 'true')
         and exists (
           select 1 from information_schema.columns c
           where c.table_schema = p.schemaname and c.table_name = p.tablename
             and c.column_name in ('account_id', 'user_id', 'owner_id', 'organization_id',
               'team_id', 'created_by')
         )`,
      [exposedSchemas],
    );
    expect(open).toEqual([]);
  });

  it('indexes every foreign key column (policies and cascades read them)', async () => {
    const unindexed = await all<{ name: string }>(
      pool,
      `select c.conrelid::regclass::text || '(' || a.attname || ')' as name
       from pg_constraint c
       join pg_namespace n on n.oid = c.connamespace
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       where c.contype = 'f' and n.nspname = any ($1)
         and not exists (
           select 1 from pg_index i
           where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1]
         )`,
      [exposedSchemas],
    );
    expect(unindexed).toEqual([]);
  });
});
