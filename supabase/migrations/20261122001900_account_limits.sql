-- The create form's "Limits data" (link-creation 4, app-shell 9): before a user opens the create
-- popover or spends credits, the portal needs the same figures public.create_link judges by.
-- app.account_limit and app.check_link_limits are private, so this RPC reports them for one
-- account the caller may read links of: per limit name its used count, limit (null means
-- unlimited), soft limit and whether overage is usable.
--
-- max_active_aliases counts live links exactly as app.check_link_limits does (active statuses,
-- not expired); max_web_credits reads the spend app.spend_credits records.

create function public.account_limits(p_account_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_active bigint;
begin
  if p_account_id is null or not app.has_permission(p_account_id, 'links.read') then
    perform app.link_error('permission_denied');
  end if;
  select count(*) into v_active
  from public.aliases a
  where a.account_id = p_account_id
    and app.alias_is_active(a.status)
    and (a.expires_at is null or a.expires_at > now());
  return (select jsonb_build_object(
    'max_active_aliases', jsonb_build_object(
      'used', v_active,
      'limit', app.account_limit(p_account_id, 'max_active_aliases'),
      'soft_limit', u_active.soft_limit,
      'overage', coalesce(u_active.overage_enabled, false)),
    'max_web_credits', jsonb_build_object(
      'used', coalesce(u_credits.used, 0),
      'limit', app.account_limit(p_account_id, 'max_web_credits'),
      'soft_limit', u_credits.soft_limit,
      'overage', coalesce(u_credits.overage_enabled, false)))
  from (select 1) as one_row
  left join public.account_usage u_active
    on u_active.account_id = p_account_id and u_active.name = 'max_active_aliases'
  left join public.account_usage u_credits
    on u_credits.account_id = p_account_id and u_credits.name = 'max_web_credits');
end;
$$;

comment on function public.account_limits(uuid) is
  'Limits data of one account for the create form: used, limit, soft_limit, overage per limit.';

revoke execute on function public.account_limits(uuid) from public, anon;
grant execute on function public.account_limits(uuid) to authenticated, service_role;

revoke execute on all functions in schema app from public;
