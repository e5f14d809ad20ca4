-- Scheduled and queued work as Supabase does it: Supabase Cron (pg_cron), pg_net (HTTP from SQL)
-- and Supabase Queues (pgmq). Hosted Supabase has the real extensions; the local stack installs
-- stand-ins with the same SQL API (supabase/local/sql/extensions, README "Scheduled and queued
-- work"), so this file runs unchanged on both.

-- Supabase Cron, as its docs enable it: jobs run as the role that scheduled them (here postgres,
-- the role migrations run as).
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres;
grant all privileges on all tables in schema cron to postgres;

-- pg_net creates and uses its own `net` schema; the extension itself is kept in `extensions`.
create extension if not exists pg_net with schema extensions;

create extension if not exists pgmq;

-- ---------------------------------------------------------------------------------------------
-- pgmq_public: the wrappers Supabase's "Expose Queues via PostgREST" creates, with its names and
-- signatures (queue operations only, no creating or dropping queues). They run as their caller
-- (security invoker): what a role may do is what the queue tables grant it. Only the service
-- role (edge functions) gets them: no app reads or writes a queue from the browser. Exposing one
-- to users means adding pgmq_public to config.toml's [api] schemas and granting that queue's
-- table with row-level security, as Supabase's docs describe.

create schema if not exists pgmq_public;

create or replace function pgmq_public.pop(queue_name text)
returns setof pgmq.message_record
language plpgsql
set search_path = ''
as $$
begin
  return query select * from pgmq.pop(queue_name := queue_name);
end;
$$;
comment on function pgmq_public.pop(text) is
  'Retrieves the next available message and deletes it from the specified queue.';

create or replace function pgmq_public.send(queue_name text, message jsonb, sleep_seconds integer default 0)
returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query select * from pgmq.send(queue_name := queue_name, msg := message, delay := sleep_seconds);
end;
$$;
comment on function pgmq_public.send(text, jsonb, integer) is
  'Adds a message to the specified queue, optionally delaying its visibility by a number of seconds.';

create or replace function pgmq_public.send_batch(queue_name text, messages jsonb[], sleep_seconds integer default 0)
returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query select * from pgmq.send_batch(queue_name := queue_name, msgs := messages, delay := sleep_seconds);
end;
$$;
comment on function pgmq_public.send_batch(text, jsonb[], integer) is
  'Adds a batch of messages to the specified queue, optionally delaying their visibility by a number of seconds.';

create or replace function pgmq_public.archive(queue_name text, message_id bigint)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  return pgmq.archive(queue_name := queue_name, msg_id := message_id);
end;
$$;
comment on function pgmq_public.archive(text, bigint) is
  'Archives a message by moving it from the queue table to the queue''s archive table.';

create or replace function pgmq_public.delete(queue_name text, message_id bigint)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  return pgmq.delete(queue_name := queue_name, msg_id := message_id);
end;
$$;
comment on function pgmq_public.delete(text, bigint) is
  'Permanently deletes a message from the specified queue.';

create or replace function pgmq_public.read(queue_name text, sleep_seconds integer, n integer)
returns setof pgmq.message_record
language plpgsql
set search_path = ''
as $$
begin
  return query select * from pgmq.read(queue_name := queue_name, vt := sleep_seconds, qty := n);
end;
$$;
comment on function pgmq_public.read(text, integer, integer) is
  'Reads up to "n" messages from the specified queue, hidden from other readers for "sleep_seconds" (the visibility timeout).';

revoke all on all functions in schema pgmq_public from public, anon, authenticated;
grant usage on schema pgmq_public to service_role;
grant execute on all functions in schema pgmq_public to service_role;

-- The wrappers run as the service role, which therefore works the queues' tables: those of
-- queues made later by migrations (as postgres) too.
grant usage on schema pgmq to service_role;
grant select on pgmq.meta to service_role;
alter default privileges for role postgres in schema pgmq
  grant select, insert, update, delete on tables to service_role;
