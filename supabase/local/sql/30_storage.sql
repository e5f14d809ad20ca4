-- The storage schema the Storage API owns: buckets and object metadata under RLS, and the
-- path helpers policies use. Written from Supabase Storage's public migrations.

create schema if not exists storage authorization supabase_storage_admin;
grant usage on schema storage to anon, authenticated, service_role, postgres, dashboard_user;
set role supabase_storage_admin;

create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');

create table storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);

create table storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  type storage.buckettype not null default 'STANDARD',
  -- Object versioning is not switched on anywhere yet (Storage ships the column "dark").
  versioning_status text not null default 'DISABLED'
    constraint buckets_versioning_status_check
      check (versioning_status in ('DISABLED', 'ENABLED', 'SUSPENDED'))
    constraint buckets_versioning_dark_check check (versioning_status = 'DISABLED')
);
create unique index bname on storage.buckets using btree (name);

create table storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text constraint "objects_bucketId_fkey" references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb,
  archived_at timestamptz,
  is_delete_marker boolean not null default false,
  is_versioned boolean not null default false
);
create unique index bucketid_objname on storage.objects using btree (bucket_id, name);
create index name_prefix_search on storage.objects using btree (name text_pattern_ops);
create index idx_objects_bucket_id_name on storage.objects (bucket_id, name collate "C");

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
alter table storage.migrations enable row level security;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

create or replace function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language plpgsql stable
as $$
begin
  return query
    select sum((metadata ->> 'size')::bigint)::bigint as size, obj.bucket_id
    from storage.objects as obj
    group by obj.bucket_id;
end
$$;

create or replace function storage.update_updated_at_column() returns trigger
language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- The operation the Storage API is performing (set per request), for policies that care.
create or replace function storage.operation() returns text
language plpgsql stable
as $$
begin
  return current_setting('storage.operation', true);
end;
$$;

-- Kept for policies and tools written against older Storage versions: tries the insert, then
-- undoes it by raising.
create or replace function storage.can_insert_object(bucketid text, name text, owner uuid, metadata jsonb)
returns void
language plpgsql
as $$
begin
  insert into storage.objects (bucket_id, name, owner, metadata) values (bucketid, name, owner, metadata);
  raise sqlstate 'PT200' using message = 'ROLLBACK', detail = 'rollback successful insert';
end
$$;

create or replace function storage.enforce_bucket_name_length() returns trigger
language plpgsql
as $$
begin
  if length(new.name) > 100 then
    raise exception 'bucket name "%" is too long (% characters). Max is 100.', new.name, length(new.name);
  end if;
  return new;
end;
$$;
create trigger enforce_bucket_name_length_trigger
  before insert or update of name on storage.buckets
  for each row execute function storage.enforce_bucket_name_length();

-- Rows and bytes go together: deleting rows behind the Storage API's back would orphan files,
-- so a delete needs storage.allow_delete_query = 'true' (the API sets it per request).
create or replace function storage.protect_delete() returns trigger
language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
  end if;
  return null;
end;
$$;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

-- "data/a/b.txt" under prefix "data/" -> "data/a/"; a leaf object -> null.
create or replace function storage.get_common_prefix(p_key text, p_prefix text, p_delimiter text)
returns text
language sql immutable
as $$
  select case
    when position(p_delimiter in substring(p_key from length(p_prefix) + 1)) > 0
    then left(p_key, length(p_prefix) + position(p_delimiter in substring(p_key from length(p_prefix) + 1)))
  end;
$$;

-- One folder level of a bucket, as the Storage API lists it (POST /object/list/{bucket}):
-- the folders and objects directly under `prefix` whose names start with `prefix || search`
-- (case-insensitively), with names relative to the prefix. Folders have null id and metadata.
-- Sorted by name, folders and files interleave; sorted by a timestamp, folders come first.
-- `levels` is unused, as in Storage, and kept for the signature. Runs as the caller, so RLS
-- on storage.objects decides what is listed.
create or replace function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
)
returns table (
  name text,
  id uuid,
  updated_at timestamptz,
  created_at timestamptz,
  last_accessed_at timestamptz,
  metadata jsonb
)
language plpgsql stable security invoker
as $func$
declare
  v_prefix text := coalesce(prefix, '');
  v_match text := lower(coalesce(prefix, '') || coalesce(search, ''));
  v_direction text := case when lower(coalesce(sortorder, 'asc')) = 'desc' then 'desc' else 'asc' end;
  v_order text;
begin
  v_order := case lower(coalesce(sortcolumn, 'name'))
    when 'updated_at' then 'updated_at'
    when 'created_at' then 'created_at'
    when 'last_accessed_at' then 'last_accessed_at'
    else 'name'
  end;
  if v_order = 'name' then
    v_order := format('lower(entries.name) collate "C" %s', v_direction);
  else
    v_order := format(
      'entries.is_folder desc, case when entries.is_folder then entries.name end %1$s, entries.%2$I %1$s, entries.name',
      v_direction, v_order);
  end if;
  return query execute format($sql$
    with matched as (
      select substring(o.name from length($1) + 1) as rest,
             o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
        from storage.objects o
       where o.bucket_id = $2
         and left(lower(o.name), length($3)) = $3
    ),
    entries as (
      select split_part(matched.rest, '/', 1) as name, null::uuid as id,
             null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata, true as is_folder
        from matched
       where strpos(matched.rest, '/') > 0
       group by split_part(matched.rest, '/', 1)
      union all
      select matched.rest, matched.id, matched.updated_at, matched.created_at,
             matched.last_accessed_at, matched.metadata, false
        from matched
       where strpos(matched.rest, '/') = 0
    )
    select entries.name, entries.id, entries.updated_at, entries.created_at,
           entries.last_accessed_at, entries.metadata
      from entries
     order by %s
     limit $4 offset $5
  $sql$, v_order)
  using v_prefix, bucketname, v_match, least(coalesce(limits, 100), 1500), greatest(coalesce(offsets, 0), 0);
end;
$func$;

reset role;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role, postgres;
grant all on storage.migrations to postgres;
grant execute on all functions in schema storage to anon, authenticated, service_role, postgres;
alter role supabase_storage_admin set search_path = storage;
