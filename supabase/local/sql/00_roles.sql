-- Supabase's database roles and default privileges, as the Supabase Postgres image sets them up.
-- Passwords are the local default ("postgres"); a hosted project has its own.

create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit password 'postgres';
grant anon, authenticated, service_role to authenticator;

create role supabase_admin login superuser createdb createrole replication bypassrls password 'postgres';
create role supabase_auth_admin login noinherit createrole password 'postgres';
create role supabase_storage_admin login noinherit createrole password 'postgres';
grant supabase_auth_admin, supabase_storage_admin to postgres;
-- Storage writes object rows as the caller's role so that storage RLS applies.
grant anon, authenticated, service_role to supabase_storage_admin;
create role dashboard_user nologin createdb createrole replication;

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
