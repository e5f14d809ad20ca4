-- The local stack's stand-in for pg_cron 1.6 (https://github.com/citusdata/pg_cron), written from
-- its documented SQL API: the same cron.job and cron.job_run_details tables, the same functions
-- and the same row-level security (users see and change only their own jobs). The runner is the
-- stack's Node process (supabase/local/src/cron), not a background worker. Installed as an
-- extension (`create extension pg_cron`) where the stack can write the server's extension folder,
-- else run as plain SQL at bootstrap (supabase/local/src/extensions.ts).
--
-- Where pg_cron's functions are C code that writes its tables as the extension, these are
-- PL/pgSQL running as their caller: row-level security keeps each role to its own jobs, and a
-- trigger checks every schedule written, by the functions or directly.

create schema cron;

create sequence cron.jobid_seq;
create sequence cron.runid_seq;

create table cron.job (
  jobid bigint primary key default nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  -- inet_server_port() is null over a Unix socket; the setting is the same port.
  nodeport integer not null default coalesce(inet_server_port(), current_setting('port')::integer),
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  constraint jobname_username_uniq unique (jobname, username)
);
alter sequence cron.jobid_seq owned by cron.job.jobid;

create table cron.job_run_details (
  jobid bigint,
  runid bigint primary key default nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
alter sequence cron.runid_seq owned by cron.job_run_details.runid;

-- The runner reads the history by job and start (pg_cron's own index is on the same columns).
create index job_run_details_jobid_start_time_idx on cron.job_run_details (jobid, start_time);

alter table cron.job enable row level security;
alter table cron.job_run_details enable row level security;
create policy cron_job_policy on cron.job
  using (username = current_user) with check (username = current_user);
create policy cron_job_run_details_policy on cron.job_run_details
  using (username = current_user);

-- Whoever may use the schema (granted per role, as pg_cron's README says) works on their own
-- rows through the functions below, which run as the caller.
grant select, insert, update, delete on cron.job to public;
grant select, delete on cron.job_run_details to public;
grant usage on sequence cron.jobid_seq to public;

-- ---------------------------------------------------------------------------------------------
-- Schedules: five cron fields (minute hour day-of-month month day-of-week, names allowed, `$` for
-- the last day of the month), the @hourly/@daily/... shorthands, or 'N seconds' with N in 1..59.
-- Always read in GMT, as pg_cron does.

create function cron._validate_schedule(p_schedule text) returns void
language plpgsql immutable
set search_path = ''
as $$
declare
  v_schedule text := lower(btrim(coalesce(p_schedule, '')));
  v_fields text[];
  v_field text;
  v_item text;
  v_match text[];
  v_low constant integer[] := array[0, 0, 1, 1, 0];
  v_high constant integer[] := array[59, 23, 31, 12, 7];
  v_months constant text[] := array['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
  v_days constant text[] := array['sun','mon','tue','wed','thu','fri','sat'];
  i integer;
  n integer;
begin
  if v_schedule ~ '^[0-9]+ +seconds?$' then
    if substring(v_schedule from '^[0-9]+')::numeric between 1 and 59 then
      return;
    end if;
  elsif v_schedule in ('@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly') then
    return;
  else
    v_fields := regexp_split_to_array(v_schedule, '\s+');
    if array_length(v_fields, 1) = 5 then
      for i in 1..5 loop
        v_field := v_fields[i];
        if i = 3 and v_field = '$' then
          continue;
        end if;
        if i = 4 then
          for n in 1..12 loop
            v_field := regexp_replace(v_field, '\m' || v_months[n] || '\M', n::text, 'g');
          end loop;
        elsif i = 5 then
          for n in 1..7 loop
            v_field := regexp_replace(v_field, '\m' || v_days[n] || '\M', (n - 1)::text, 'g');
          end loop;
        end if;
        foreach v_item in array string_to_array(v_field, ',') loop
          -- *, N, N-M, */S or N-M/S
          v_match := regexp_match(v_item, '^(?:(\*)|([0-9]{1,2})(?:-([0-9]{1,2}))?)(?:/([0-9]{1,2}))?$');
          if v_match is null
            or (v_match[2] is not null and v_match[2]::integer not between v_low[i] and v_high[i])
            or (v_match[3] is not null and v_match[3]::integer not between v_match[2]::integer and v_high[i])
            or (v_match[4] is not null and (v_match[4]::integer not between 1 and v_high[i]
              or (v_match[1] is null and v_match[3] is null)))
          then
            v_fields := null;
            exit;
          end if;
        end loop;
        exit when v_fields is null;
      end loop;
      if v_fields is not null then
        return;
      end if;
    end if;
  end if;
  raise exception using errcode = '22023',
    message = format('invalid schedule: %s', p_schedule),
    hint = 'Use cron format (e.g. 5 4 * * *), or interval format ''[1-59] seconds''';
end;
$$;

create function cron._check_job() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform cron._validate_schedule(new.schedule);
  return new;
end;
$$;

create trigger job_check_schedule before insert or update of schedule on cron.job
  for each row execute function cron._check_job();

create function cron._assert_may_act_as(p_username text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if p_username is not null and p_username <> current_user
    and not coalesce((select r.rolsuper from pg_catalog.pg_roles r where r.rolname = current_user), false)
  then
    raise exception using errcode = '42501',
      message = 'must be superuser to create or alter a job for another user';
  end if;
  if p_username is not null and not exists (select 1 from pg_catalog.pg_roles r where r.rolname = p_username) then
    raise exception using errcode = '42704', message = format('role "%s" does not exist', p_username);
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The API. A job that is not there (or not the caller's) is pg_cron's error, with its SQLSTATE
-- (XX000: pg_cron raises it without a code), which migrations guarding an unschedule look for.

create function cron.schedule_in_database(
  job_name text, schedule text, command text, database text,
  username text default null, active boolean default true
) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  v_jobid bigint;
begin
  perform cron._assert_may_act_as(username);
  if not exists (select 1 from pg_catalog.pg_database d where d.datname = database) then
    raise exception using errcode = '3D000', message = format('database "%s" does not exist', database);
  end if;
  -- A named job is created once per owner; scheduling the name again changes it.
  insert into cron.job as j (schedule, command, database, username, active, jobname)
  values (schedule, command, database, coalesce(username, current_user), coalesce(active, true), job_name)
  on conflict on constraint jobname_username_uniq do update
    set schedule = excluded.schedule, command = excluded.command,
      database = excluded.database, active = excluded.active
  returning j.jobid into v_jobid;
  return v_jobid;
end;
$$;

create function cron.schedule(job_name text, schedule text, command text) returns bigint
language sql
set search_path = ''
as $$
  select cron.schedule_in_database(job_name, schedule, command, current_database());
$$;

create function cron.schedule(schedule text, command text) returns bigint
language sql
set search_path = ''
as $$
  select cron.schedule_in_database(null, schedule, command, current_database());
$$;

create function cron.unschedule(job_id bigint) returns boolean
language plpgsql
set search_path = ''
as $$
begin
  delete from cron.job j where j.jobid = job_id;
  if not found then
    raise exception using errcode = 'XX000', message = format('could not find valid entry for job %s', job_id);
  end if;
  return true;
end;
$$;

create function cron.unschedule(job_name text) returns boolean
language plpgsql
set search_path = ''
as $$
begin
  delete from cron.job j where j.jobname = job_name and j.username = current_user;
  if not found then
    raise exception using errcode = 'XX000', message = format('could not find valid entry for job ''%s''', job_name);
  end if;
  return true;
end;
$$;

create function cron.alter_job(
  job_id bigint, schedule text default null, command text default null,
  database text default null, username text default null, active boolean default null
) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform cron._assert_may_act_as(username);
  if database is not null and not exists (select 1 from pg_catalog.pg_database d where d.datname = database) then
    raise exception using errcode = '3D000', message = format('database "%s" does not exist', database);
  end if;
  update cron.job j
  set schedule = coalesce(alter_job.schedule, j.schedule),
    command = coalesce(alter_job.command, j.command),
    database = coalesce(alter_job.database, j.database),
    username = coalesce(alter_job.username, j.username),
    active = coalesce(alter_job.active, j.active)
  where j.jobid = job_id;
  if not found then
    raise exception using errcode = 'XX000', message = format('could not find valid entry for job %s', job_id);
  end if;
end;
$$;
