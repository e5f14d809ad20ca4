-- API tokens for the public REST API (settings `api`, `api/new`, `api/edit/{tokenId}`, and the
-- team pages of the same name): mint, list, rename and re-scope, revoke; and the one call the
-- `api` edge function makes before every request (app.begin_api_call).
--
-- Tokens stay stored as SHA-256 (20261122000210_links.sql). That is enough here and a slow
-- password hash would not add anything: a token is 192 random bits from the CSPRNG, so a leaked
-- hash cannot be reversed by guessing (bcrypt and argon2 exist to slow down guessing of
-- low-entropy passwords), and a deterministic hash lets every API request find its token by
-- one lookup on the unique index instead of trying candidates.
--
-- Abilities: the vocabulary becomes the public API's scopes (links:read, links:write,
-- analytics:read, domains:read, bulk); the few seeded tokens are translated.
--
-- Minting and revoking need a recent password confirmation, the rule behind the portal's 423
-- flow (app-shell 8): the portal answers 423 by asking for the password, signs in again (a fresh
-- `password` entry in the JWT's amr) and retries. The window is Laravel's password_timeout,
-- 3 hours, which the spec's 423 mirrors.

create or replace function app.api_token_abilities() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array['links:read', 'links:write', 'analytics:read', 'domains:read', 'bulk']::text[]
$$;

update public.api_tokens t
set abilities = array(
  select distinct case a
    when 'links.read' then 'links:read'
    when 'analytics.read' then 'analytics:read'
    when 'domains.read' then 'domains:read'
    when 'tags.read' then 'links:read'
    else 'links:write'
  end
  from unnest(t.abilities) as a
  order by 1
);

-- ---------------------------------------------------------------------------------------------
-- Password confirmation (423).

create function app.password_confirmation_timeout() returns interval
language sql immutable security definer
set search_path = ''
as $$ select interval '3 hours' $$;

-- Refuses a signed-in caller whose JWT carries no password sign-in within the timeout. Calls
-- without a user (service role, seeds, maintenance) pass: they never had a password to confirm.
create function app.require_password_confirmation() returns void
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_amr jsonb := (select auth.jwt()) -> 'amr';
begin
  if (select auth.uid()) is null then
    return;
  end if;
  if jsonb_typeof(v_amr) = 'array' and exists (
    select 1 from jsonb_array_elements(v_amr) as e(entry)
    where e.entry ->> 'method' = 'password'
      and jsonb_typeof(e.entry -> 'timestamp') = 'number'
      and to_timestamp((e.entry ->> 'timestamp')::double precision)
          > now() - app.password_confirmation_timeout()
  ) then
    return;
  end if;
  raise exception using errcode = 'PT423', message = 'password_confirmation_required',
    detail = 'Password confirmation required.', hint = 'form';
end;
$$;

-- Revoking through the table (PostgREST's DELETE) needs it too. Rows removed by a cascade (an
-- account or user deleted) come from a deeper trigger level and are not the caller's choice.
create function app.api_token_revocation_needs_password() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if pg_trigger_depth() = 1 then
    perform app.require_password_confirmation();
  end if;
  return old;
end;
$$;

create trigger api_tokens_revocation_needs_password before delete on public.api_tokens
  for each row execute function app.api_token_revocation_needs_password();

-- ---------------------------------------------------------------------------------------------
-- Token RPCs.

create function app.api_token_error(p_code text) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_code = 'api_token_not_found' then
    raise exception using errcode = 'PT404', message = p_code,
      detail = 'API token not found.', hint = 'form';
  end if;
  perform app.link_error(p_code);
end;
$$;

create function app.check_api_token_fields(p_name text, p_abilities text[]) returns void
language plpgsql immutable security definer
set search_path = ''
as $$
begin
  if nullif(btrim(p_name), '') is null then
    perform app.raise_coded('name_required');
  end if;
  if char_length(btrim(p_name)) > 100 then
    raise exception using errcode = 'PT422', message = 'name_too_long',
      detail = 'The name must not be greater than 100 characters.', hint = 'name';
  end if;
  if p_abilities is null or cardinality(p_abilities) = 0
    or array_position(p_abilities, null) is not null
    or not p_abilities <@ app.api_token_abilities() then
    perform app.link_error('abilities_invalid');
  end if;
end;
$$;

create or replace function public.create_api_token(
  p_name text,
  p_abilities text[],
  p_account_id uuid default null,
  p_expires_at timestamptz default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_account_id uuid := coalesce(p_account_id,
    (select p.personal_account_id from public.profiles p where p.id = v_uid));
  -- 24 bytes of the CSPRNG: 192 bits, so the stored SHA-256 cannot be reversed by guessing.
  v_token text := 'slt_' || encode(extensions.gen_random_bytes(24), 'hex');
  v_row public.api_tokens;
begin
  if v_uid is null or v_account_id is null or not app.has_permission(v_account_id, 'api') then
    perform app.link_error('permission_denied');
  end if;
  -- The API settings page needs a verified e-mail address or a subscription.
  if not app.is_verified(v_uid) and not app.is_subscribed(v_uid) then
    perform app.link_error('email_verification', 'form');
  end if;
  if not app.account_has_feature(v_account_id, 'use_api') then
    perform app.link_error('feature_not_allowed');
  end if;
  perform app.check_api_token_fields(p_name, p_abilities);
  if p_expires_at is not null and p_expires_at < now() + interval '5 minutes' then
    perform app.link_error('expiry_too_soon');
  end if;
  perform app.require_password_confirmation();
  insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
    abilities, expires_at)
  values (v_account_id, v_uid, btrim(p_name), sha256(convert_to(v_token, 'UTF8')),
    left(v_token, 10), array(select distinct unnest(p_abilities) order by 1), p_expires_at)
  returning * into v_row;
  -- The only time the plain token leaves the database.
  return jsonb_build_object('id', v_row.id, 'token', v_token, 'token_prefix', v_row.token_prefix,
    'name', v_row.name, 'abilities', v_row.abilities, 'account_id', v_row.account_id,
    'expires_at', v_row.expires_at, 'created_at', v_row.created_at);
end;
$$;

-- Rename and re-scope. Security invoker: the API managers' update policy and the aal2 policy
-- decide whose token it is; a token the caller cannot see is not found.
create function public.update_api_token(p_token_id uuid, p_name text, p_abilities text[])
returns jsonb
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_row record;
begin
  perform app.check_api_token_fields(p_name, p_abilities);
  -- Named columns: the caller may not read token_hash, so `returning *` would be refused.
  update public.api_tokens
  set name = btrim(p_name), abilities = array(select distinct unnest(p_abilities) order by 1)
  where id = p_token_id
  returning id, name, abilities, token_prefix, expires_at, last_used_at into v_row;
  if v_row.id is null then
    perform app.api_token_error('api_token_not_found');
  end if;
  return jsonb_build_object('id', v_row.id, 'name', v_row.name, 'abilities', v_row.abilities,
    'token_prefix', v_row.token_prefix, 'expires_at', v_row.expires_at,
    'last_used_at', v_row.last_used_at);
end;
$$;

-- Revoke (delete): the delete policy and the password trigger apply; unknown → 404.
create function public.revoke_api_token(p_token_id uuid) returns void
language plpgsql volatile security invoker
set search_path = ''
as $$
begin
  delete from public.api_tokens where id = p_token_id;
  if not found then
    perform app.api_token_error('api_token_not_found');
  end if;
end;
$$;

-- The hash is nobody's business once stored: API roles read every other column.
revoke select on public.api_tokens from authenticated;
grant select (id, account_id, created_by, name, token_prefix, abilities, last_used_at,
  expires_at, created_at, updated_at) on public.api_tokens to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Usage counters: one spending rule for every credit kind (web credits, API credits).

insert into public.operation_costs (operation, credits) values ('api_call', 1)
on conflict (operation) do nothing;

-- Spends `p_cost` of the account's `p_option` allowance this period; false when it is short.
-- Unlimited (no limit) or free (cost 0) always succeeds without counting.
create function app.spend_usage(p_account_id uuid, p_option text, p_cost integer)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_limit bigint := app.account_limit(p_account_id, p_option);
  v_used bigint;
begin
  if v_limit is null or p_cost = 0 then
    return true;
  end if;
  insert into public.account_usage (account_id, name) values (p_account_id, p_option)
  on conflict (account_id, name) do nothing;
  select u.used into v_used from public.account_usage u
  where u.account_id = p_account_id and u.name = p_option
  for update;
  if v_limit - v_used < p_cost then
    return false;
  end if;
  update public.account_usage set used = used + p_cost
  where account_id = p_account_id and name = p_option;
  return true;
end;
$$;

create or replace function app.spend_credits(p_account_id uuid, p_operation text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_cost integer := (select c.credits from public.operation_costs c where c.operation = p_operation);
begin
  if v_cost is null then
    raise exception 'spend_credits: unknown operation "%"', p_operation using errcode = '22023';
  end if;
  if not app.spend_usage(p_account_id, 'max_web_credits', v_cost) then
    perform app.link_error('not_enough_credits');
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Rate limits with the figures an API answers in X-RateLimit-* headers.

-- Counts one request in the bucket's fixed window: the hits so far (this one included) and the
-- whole seconds until the window ends. The single counting rule; app.hit_rate_limit judges it.
create function app.count_rate_limit_hit(p_bucket text, p_window interval)
returns table (hits integer, reset_in integer)
language plpgsql volatile security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_hits integer;
  v_started timestamptz;
begin
  if p_bucket is null or p_bucket !~ '^[a-z_]+:.+$' then
    raise exception 'rate limit bucket must be <kind>:<key>, got %', p_bucket;
  end if;
  if p_window is null or p_window <= interval '0' then
    raise exception 'rate limit needs a limit of at least 0 and a positive window';
  end if;
  insert into app.rate_limit_counters as c (bucket, window_started_at, hits)
  values (p_bucket, now(), 1)
  on conflict (bucket) do update
    set window_started_at = case
          when c.window_started_at + p_window <= now() then now() else c.window_started_at end,
        hits = case when c.window_started_at + p_window <= now() then 1 else c.hits + 1 end
  returning c.hits, c.window_started_at into v_hits, v_started;
  delete from app.rate_limit_counters
  where window_started_at <= now() - p_window
    and bucket like split_part(p_bucket, ':', 1) || ':%';
  return query select v_hits,
    greatest(1, ceil(extract(epoch from v_started + p_window - now())))::integer;
end;
$$;

create or replace function app.hit_rate_limit(p_bucket text, p_limit integer, p_window interval)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_hit record;
begin
  if p_limit is null or p_limit < 0 then
    raise exception 'rate limit needs a limit of at least 0 and a positive window';
  end if;
  select * into v_hit from app.count_rate_limit_hit(p_bucket, p_window);
  return case when v_hit.hits <= p_limit then 0 else v_hit.reset_in end;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The API's gate, one call per request (for the `api` edge function, service role). In order,
-- and nothing spent on a refusal before it: the token (unknown, revoked or expired: 401; the
-- use is recorded), the token's rate limit (429; refused calls count), the route's ability
-- (403), the creator still holding `api` on the account and the account's plan still having
-- use_api (403), then one API call's credits (402). The answer says which, with the rate-limit
-- figures and who the request then runs as.
create function app.begin_api_call(
  p_token text,
  p_ability text,
  p_rate_limit integer,
  p_rate_window interval
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_token record;
  v_hit record;
  v_claims text := current_setting('request.jwt.claims', true);
  v_allowed boolean;
  v_cost integer := (select c.credits from public.operation_costs c where c.operation = 'api_call');
  v_rate jsonb;
  v_base jsonb;
begin
  update public.api_tokens t
  set last_used_at = now()
  where t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    and (t.expires_at is null or t.expires_at > now())
    and t.created_by is not null
  returning t.id, t.account_id, t.created_by, t.abilities into v_token;
  if v_token.id is null then
    return jsonb_build_object('outcome', 'unauthenticated');
  end if;

  select * into v_hit from app.count_rate_limit_hit('api_token:' || v_token.id, p_rate_window);
  v_rate := jsonb_build_object('limit', p_rate_limit,
    'remaining', greatest(0, p_rate_limit - v_hit.hits), 'reset', v_hit.reset_in);
  v_base := jsonb_build_object('rate', v_rate, 'token_id', v_token.id,
    'account_id', v_token.account_id, 'user_id', v_token.created_by,
    'abilities', to_jsonb(v_token.abilities),
    'organization_id', (select t.organization_id from public.teams t
                        where t.account_id = v_token.account_id));
  if v_hit.hits > p_rate_limit then
    return v_base || jsonb_build_object('outcome', 'rate_limited');
  end if;
  if p_ability is not null and not p_ability = any (v_token.abilities) then
    return v_base || jsonb_build_object('outcome', 'ability_missing');
  end if;

  -- Permissions resolve for auth.uid(): ask as the token's creator, then put the caller back.
  perform set_config('request.jwt.claims', jsonb_build_object('sub', v_token.created_by,
    'role', 'authenticated')::text, true);
  v_allowed := app.has_permission(v_token.account_id, 'api');
  perform set_config('request.jwt.claims', coalesce(v_claims, ''), true);
  if not v_allowed then
    return v_base || jsonb_build_object('outcome', 'permission_denied');
  end if;
  if not app.account_has_feature(v_token.account_id, 'use_api') then
    return v_base || jsonb_build_object('outcome', 'feature_not_allowed');
  end if;
  if not app.spend_usage(v_token.account_id, 'max_api_credits', coalesce(v_cost, 1)) then
    return v_base || jsonb_build_object('outcome', 'not_enough_credits');
  end if;
  return v_base || jsonb_build_object('outcome', 'ok');
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Idempotency keys of the API's creates: the first answer, replayed for 24 hours.

create table app.api_idempotency_keys (
  token_id uuid not null references public.api_tokens (id) on delete cascade,
  key text not null check (char_length(key) between 1 and 255),
  -- What the key was first used for (method and path, plus a hash of the body): the same key on
  -- another request is refused rather than answered with an unrelated result.
  request_hash text not null,
  status integer,
  body jsonb,
  created_at timestamptz not null default now(),
  primary key (token_id, key)
);
create index api_idempotency_keys_created_at_idx on app.api_idempotency_keys (created_at);
alter table app.api_idempotency_keys enable row level security;
revoke all on app.api_idempotency_keys from public, anon, authenticated;
grant select, insert, update, delete on app.api_idempotency_keys to service_role;

revoke execute on all functions in schema app from public;
revoke execute on function public.update_api_token(uuid, text, text[]),
  public.revoke_api_token(uuid) from public, anon;
grant execute on function public.update_api_token(uuid, text, text[]),
  public.revoke_api_token(uuid) to authenticated, service_role;
grant execute on function app.check_api_token_fields(text, text[]), app.api_token_error(text),
  app.require_password_confirmation(), app.password_confirmation_timeout()
  to authenticated, service_role;
grant execute on function app.begin_api_call(text, text, integer, interval),
  app.count_rate_limit_hit(text, interval), app.hit_rate_limit(text, integer, interval)
  to service_role;
