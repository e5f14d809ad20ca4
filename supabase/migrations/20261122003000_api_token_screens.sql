-- What the API token screens need beyond 20261122002700_api_tokens.sql: the portal's credits
-- line (settings `api` and the team `api` page: "credits left for the account"), and the kiosk's
-- view of every token with the staff revocation (kiosk/src/resources/api-tokens).

-- ---------------------------------------------------------------------------------------------
-- API credits of one account: what its plan allows (max_api_credits; null when unlimited) and
-- what its tokens' calls have spent. For whoever manages its tokens (the `api` permission).

create function public.api_credits(p_account_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_account_id is null or not app.has_permission(p_account_id, 'api') then
    perform app.link_error('permission_denied');
  end if;
  return jsonb_build_object(
    'used', coalesce((select u.used from public.account_usage u
                      where u.account_id = p_account_id and u.name = 'max_api_credits'), 0),
    'limit', app.account_limit(p_account_id, 'max_api_credits'));
end;
$$;

comment on function public.api_credits(uuid) is
  'API credits of an account for its token screens: used and limit (null: unlimited).';

revoke execute on function public.api_credits(uuid) from public, anon;
grant execute on function public.api_credits(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The kiosk: every token with its account and creator, never its hash (the view names its
-- columns, and authenticated may not read token_hash anyway). Staff only: the table's staff
-- policy and the filter below.

create view public.kiosk_api_tokens with (security_invoker = true) as
select
  t.id,
  t.name,
  t.token_prefix,
  t.abilities,
  t.account_id,
  ac.name as account_name,
  ac.kind as account_kind,
  t.created_by,
  cp.email as created_by_email,
  t.last_used_at,
  t.expires_at,
  (t.expires_at is not null and t.expires_at <= now()) as expired,
  t.created_at,
  t.updated_at
from public.api_tokens t
join public.accounts ac on ac.id = t.account_id
left join public.profiles cp on cp.id = t.created_by
where (select app.is_staff());
comment on view public.kiosk_api_tokens is
  'Staff only: API tokens with their account and creator; never the hash.';

revoke all on public.kiosk_api_tokens from anon, authenticated;
grant select on public.kiosk_api_tokens to authenticated;

-- A revocation by staff (a leaked or abused token) is not the token owner's own choice, so the
-- owner's password-confirmation rule does not apply to it; the staff member's session is what
-- the kiosk already requires. The exemption names the one token the staff RPC is deleting, in a
-- transaction-local setting no client can set (PostgREST only sets request.*).
create or replace function app.api_token_revocation_needs_password() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if pg_trigger_depth() = 1
    and coalesce(current_setting('app.staff_revoking_api_token', true), '') <> old.id::text then
    perform app.require_password_confirmation();
  end if;
  return old;
end;
$$;

create function public.kiosk_revoke_api_token(p_token_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform app.require_staff();
  perform set_config('app.staff_revoking_api_token', coalesce(p_token_id::text, ''), true);
  delete from public.api_tokens where id = p_token_id;
  if not found then
    perform set_config('app.staff_revoking_api_token', '', true);
    perform app.api_token_error('api_token_not_found');
  end if;
  perform set_config('app.staff_revoking_api_token', '', true);
end;
$$;

comment on function public.kiosk_revoke_api_token(uuid) is
  'Staff only: revokes (deletes) any API token; its next API call is refused with 401.';

revoke execute on function public.kiosk_revoke_api_token(uuid) from public, anon;
grant execute on function public.kiosk_revoke_api_token(uuid) to authenticated, service_role;
revoke execute on all functions in schema app from public;
