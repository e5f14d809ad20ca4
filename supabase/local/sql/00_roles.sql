-- Supabase's database roles and default privileges, as the Supabase Postgres image sets them up.
-- Passwords are the local default ("postgres"); a hosted project has its own.

-- Roles belong to the server, not to one database: a server named by DATABASE_URL may already
-- have them (another database of it was bootstrapped), and then they are kept as they are.
do $$
declare
  r record;
begin
  for r in select * from (values
    ('anon', $o$nologin noinherit$o$),
    ('authenticated', $o$nologin noinherit$o$),
    ('service_role', $o$nologin noinherit bypassrls$o$),
    ('authenticator', $o$login noinherit password 'postgres'$o$),
    ('supabase_admin', $o$login superuser createdb createrole replication bypassrls password 'postgres'$o$),
    ('supabase_auth_admin', $o$login noinherit createrole password 'postgres'$o$),
    ('supabase_storage_admin', $o$login noinherit createrole password 'postgres'$o$),
    ('dashboard_user', $o$nologin createdb createrole replication$o$)
  ) as roles(name, options) loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = r.name) then
      execute format('create role %I %s', r.name, r.options);
    end if;
  end loop;
end $$;

grant anon, authenticated, service_role to authenticator;

grant supabase_auth_admin, supabase_storage_admin to postgres;
-- Storage writes object rows as the caller's role so that storage RLS applies.
grant anon, authenticated, service_role to supabase_storage_admin;

-- Edge functions reach the database as postgres through SUPABASE_DB_URL, as on Supabase.
alter role postgres set search_path = "$user", public, extensions;
alter role authenticator set statement_timeout = '8s';
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to anon, authenticated, service_role;
