-- The local stack's stand-in for pgmq 1.4 (Supabase Queues; https://github.com/pgmq/pgmq),
-- written from its documented SQL API: a queue `x` is the table pgmq.q_x (its messages) and
-- pgmq.a_x (its archive), listed in pgmq.meta; every function below has pgmq's signature and
-- return type. Reading hides a message for `vt` seconds (visibility timeout) and counts the read;
-- a message read and neither deleted nor archived comes back once its vt passes. Needs no runner.
-- Functions run as their caller, as pgmq's do: access is the queue tables' grants.

create table pgmq.meta (
  queue_name varchar not null unique,
  is_partitioned boolean not null,
  is_unlogged boolean not null,
  created_at timestamptz not null default now()
);

create type pgmq.message_record as (
  msg_id bigint,
  read_ct integer,
  enqueued_at timestamptz,
  vt timestamptz,
  message jsonb
);

create type pgmq.queue_record as (
  queue_name varchar,
  is_partitioned boolean,
  is_unlogged boolean,
  created_at timestamptz
);

create type pgmq.metrics_result as (
  queue_name text,
  queue_length bigint,
  newest_msg_age_sec integer,
  oldest_msg_age_sec integer,
  total_messages bigint,
  scrape_time timestamptz
);

-- ---------------------------------------------------------------------------------------------
-- Names.

create function pgmq.format_table_name(queue_name text, prefix text) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  if queue_name ~ '\$|;|--|''' then
    raise exception using errcode = '22023',
      message = 'queue name contains invalid characters: $, ;, --, or \''';
  end if;
  return lower(prefix || '_' || queue_name);
end;
$$;

create function pgmq.validate_queue_name(queue_name text) returns void
language plpgsql immutable
set search_path = ''
as $$
begin
  if queue_name is null or length(queue_name) = 0 then
    raise exception using errcode = '22023', message = 'queue name must not be empty';
  end if;
  -- Table names are 63 bytes at most, and the longest name made from a queue's has 15 more.
  if length(queue_name) >= 48 then
    raise exception using errcode = '22023',
      message = format('queue name is too long, maximum length is 48 characters');
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Queues.

create function pgmq._create(queue_name text, p_unlogged boolean) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_q text := pgmq.format_table_name(queue_name, 'q');
  v_a text := pgmq.format_table_name(queue_name, 'a');
  v_kind text := case when p_unlogged then 'unlogged ' else '' end;
begin
  perform pgmq.validate_queue_name(queue_name);
  execute format(
    'create %stable if not exists pgmq.%I (
      msg_id bigint primary key generated always as identity,
      read_ct integer not null default 0,
      enqueued_at timestamptz not null default now(),
      vt timestamptz not null,
      message jsonb)', v_kind, v_q);
  execute format(
    'create table if not exists pgmq.%I (
      msg_id bigint primary key,
      read_ct integer not null default 0,
      enqueued_at timestamptz not null default now(),
      archived_at timestamptz not null default now(),
      vt timestamptz not null,
      message jsonb)', v_a);
  execute format('create index if not exists %I on pgmq.%I (vt asc)', v_q || '_vt_idx', v_q);
  execute format('create index if not exists %I on pgmq.%I (archived_at)', 'archived_at_idx_' || lower(queue_name), v_a);
  insert into pgmq.meta (queue_name, is_partitioned, is_unlogged)
  values (_create.queue_name, false, p_unlogged)
  on conflict on constraint meta_queue_name_key do nothing;
end;
$$;

create function pgmq.create(queue_name text) returns void
language sql
set search_path = ''
as $$ select pgmq._create(queue_name, false); $$;

create function pgmq.create_non_partitioned(queue_name text) returns void
language sql
set search_path = ''
as $$ select pgmq._create(queue_name, false); $$;

create function pgmq.create_unlogged(queue_name text) returns void
language sql
set search_path = ''
as $$ select pgmq._create(queue_name, true); $$;

-- pgmq 1.4's signature; `partitioned` is accepted and unused (no queue here is partitioned).
create function pgmq.drop_queue(queue_name text, partitioned boolean default false) returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select 1 from pgmq.meta m where m.queue_name = drop_queue.queue_name) then
    raise notice 'pgmq queue `%` does not exist', queue_name;
    return false;
  end if;
  execute format('drop table if exists pgmq.%I', pgmq.format_table_name(queue_name, 'q'));
  execute format('drop table if exists pgmq.%I', pgmq.format_table_name(queue_name, 'a'));
  delete from pgmq.meta m where m.queue_name = drop_queue.queue_name;
  return true;
end;
$$;

create function pgmq.purge_queue(queue_name text) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_deleted bigint;
begin
  execute format('with d as (delete from pgmq.%I returning 1) select count(*) from d',
    pgmq.format_table_name(queue_name, 'q')) into v_deleted;
  return v_deleted;
end;
$$;

create function pgmq.list_queues() returns setof pgmq.queue_record
language sql stable
set search_path = ''
as $$
  select m.queue_name, m.is_partitioned, m.is_unlogged, m.created_at from pgmq.meta m order by m.queue_name;
$$;

create function pgmq.metrics(queue_name text) returns pgmq.metrics_result
language plpgsql
set search_path = ''
as $$
declare
  v_result pgmq.metrics_result;
begin
  execute format(
    'select $1, count(*), extract(epoch from now() - max(enqueued_at))::integer,
       extract(epoch from now() - min(enqueued_at))::integer, 0::bigint, now()
     from pgmq.%I', pgmq.format_table_name(queue_name, 'q'))
  into v_result using queue_name;
  -- total_messages counts every message ever sent: the identity's last value covers those
  -- already deleted or archived.
  execute format('select coalesce((select last_value from pg_catalog.pg_sequences s
      where s.schemaname = ''pgmq'' and s.sequencename = %L), 0)',
    pgmq.format_table_name(queue_name, 'q') || '_msg_id_seq')
  into v_result.total_messages;
  return v_result;
end;
$$;

create function pgmq.metrics_all() returns setof pgmq.metrics_result
language sql
set search_path = ''
as $$
  select (pgmq.metrics(m.queue_name)).* from pgmq.meta m order by m.queue_name;
$$;

-- ---------------------------------------------------------------------------------------------
-- Messages.

create function pgmq.send(queue_name text, msg jsonb, delay integer default 0) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'insert into pgmq.%I (vt, message) values (clock_timestamp() + make_interval(secs => $1), $2) returning msg_id',
    pgmq.format_table_name(queue_name, 'q')) using delay, msg;
end;
$$;

create function pgmq.send(queue_name text, msg jsonb, delay timestamptz) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'insert into pgmq.%I (vt, message) values ($1, $2) returning msg_id',
    pgmq.format_table_name(queue_name, 'q')) using delay, msg;
end;
$$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], delay integer default 0) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'insert into pgmq.%I (vt, message)
     select clock_timestamp() + make_interval(secs => $1), m from unnest($2) with ordinality as u(m, n) order by n
     returning msg_id', pgmq.format_table_name(queue_name, 'q')) using delay, msgs;
end;
$$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], delay timestamptz) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'insert into pgmq.%I (vt, message)
     select $1, m from unnest($2) with ordinality as u(m, n) order by n
     returning msg_id', pgmq.format_table_name(queue_name, 'q')) using delay, msgs;
end;
$$;

-- The oldest visible messages, locked so that concurrent readers skip them, hidden for vt
-- seconds, oldest first.
create function pgmq.read(queue_name text, vt integer, qty integer) returns setof pgmq.message_record
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'with next as (
       select msg_id from pgmq.%1$I where vt <= clock_timestamp()
       order by msg_id limit $2 for update skip locked)
     , done as (
       update pgmq.%1$I q set vt = clock_timestamp() + make_interval(secs => $1), read_ct = q.read_ct + 1
       from next where q.msg_id = next.msg_id
       returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message)
     select * from done order by msg_id',
    pgmq.format_table_name(queue_name, 'q')) using vt, qty;
end;
$$;

create function pgmq.pop(queue_name text) returns setof pgmq.message_record
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'with next as (
       select msg_id from pgmq.%1$I where vt <= clock_timestamp()
       order by msg_id limit 1 for update skip locked)
     delete from pgmq.%1$I q using next where q.msg_id = next.msg_id
     returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message',
    pgmq.format_table_name(queue_name, 'q'));
end;
$$;

create function pgmq.set_vt(queue_name text, msg_id bigint, vt integer) returns setof pgmq.message_record
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'update pgmq.%I q set vt = clock_timestamp() + make_interval(secs => $1) where q.msg_id = $2
     returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message',
    pgmq.format_table_name(queue_name, 'q')) using vt, msg_id;
end;
$$;

create function pgmq.delete(queue_name text, msg_ids bigint[]) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'delete from pgmq.%I q where q.msg_id = any($1) returning q.msg_id',
    pgmq.format_table_name(queue_name, 'q')) using msg_ids;
end;
$$;

create function pgmq.delete(queue_name text, msg_id bigint) returns boolean
language sql
set search_path = ''
as $$
  select exists (select 1 from pgmq.delete(queue_name, array[msg_id]));
$$;

create function pgmq.archive(queue_name text, msg_ids bigint[]) returns setof bigint
language plpgsql
set search_path = ''
as $$
begin
  return query execute format(
    'with moved as (
       delete from pgmq.%I q where q.msg_id = any($1)
       returning q.msg_id, q.vt, q.read_ct, q.enqueued_at, q.message)
     insert into pgmq.%I (msg_id, vt, read_ct, enqueued_at, message)
     select msg_id, vt, read_ct, enqueued_at, message from moved
     returning msg_id',
    pgmq.format_table_name(queue_name, 'q'), pgmq.format_table_name(queue_name, 'a')) using msg_ids;
end;
$$;

create function pgmq.archive(queue_name text, msg_id bigint) returns boolean
language sql
set search_path = ''
as $$
  select exists (select 1 from pgmq.archive(queue_name, array[msg_id]));
$$;
