-- What the caller may see of an account's analytics (the portal's dashboard panel): the stats
-- periods its plan covers, none without analytics. The dashboard asks account_analytics only for
-- a period listed here, so a plan without analytics costs no refused request; account_analytics
-- still decides every call on its own. Same answer shape as link_analytics_access's periods.

create function public.account_analytics_access(p_account_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  -- permission_denied for an account the caller may not read, as account_analytics answers.
  perform app.require_account_reader(p_account_id);
  return jsonb_build_object(
    'account_id', p_account_id,
    'periods', to_jsonb(app.allowed_analytics_periods(p_account_id))
  );
end;
$$;
comment on function public.account_analytics_access(uuid) is
  'The stats periods of an account''s analytics that the caller''s plan covers (none: no analytics).';

revoke execute on function public.account_analytics_access(uuid) from public, anon;
grant execute on function public.account_analytics_access(uuid) to authenticated, service_role;
