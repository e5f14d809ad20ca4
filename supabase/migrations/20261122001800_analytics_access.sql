-- What the caller may do on a link's analytics page (portal analytics/{hash}): which stats
-- periods their plan covers, whether they may share the analytics publicly (and the live share
-- token), and whether they may download the click log. The page shows only what is allowed; the
-- RPCs of migration 001110 still decide every call on their own.

-- The periods of app.analytics_interval that a plan's analytics_period covers (all of them when
-- the price leaves the option out), shortest first; none without analytics.
create function app.allowed_analytics_periods(p_feature_account_id uuid) returns text[]
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_limit jsonb;
begin
  if not app.is_staff() then
    if p_feature_account_id is null
      or not app.account_has_feature(p_feature_account_id, 'use_analytics')
      or app.account_plan_option(p_feature_account_id, 'analytics_enabled') = 'false'::jsonb then
      return '{}';
    end if;
    v_limit := app.account_plan_option(p_feature_account_id, 'analytics_period');
  end if;
  return array(
    select p.name
    from (values (1, 'last_1_hour'), (2, 'last_24_hour'), (3, 'last_7_day'), (4, 'last_30_day'))
      as p(position, name)
    where jsonb_typeof(v_limit) is distinct from 'string'
      or app.analytics_interval(p.name) <= (v_limit #>> '{}')::interval
    order by p.position
  );
end;
$$;

create function public.link_analytics_access(p_alias_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_link record;
  v_created_by uuid;
  v_periods text[];
  v_manager boolean;
  v_sharing boolean;
begin
  -- alias_not_found for a link the caller may not read, as link_analytics answers.
  select * into v_link from app.readable_link(p_alias_id);
  select a.created_by into v_created_by from public.aliases a where a.id = v_link.alias_id;
  v_periods := app.allowed_analytics_periods(v_link.feature_account_id);
  -- The same rule as app.require_link_manager (share and unshare), without raising.
  v_manager := v_link.account_id is not null
    and (app.has_permission(v_link.account_id, 'links.manage')
      or (v_created_by = (select auth.uid())
        and app.has_permission(v_link.account_id, 'links.create')));
  v_sharing := v_link.feature_account_id is not null
    and app.sharing_allowed(v_link.feature_account_id);
  return jsonb_build_object(
    'alias_id', v_link.alias_id,
    'domain', v_link.domain,
    'alias', v_link.alias,
    'periods', to_jsonb(v_periods),
    'can_share', v_manager and v_sharing and cardinality(v_periods) > 0,
    -- Only a share that public_link_analytics would answer.
    'share_token', case when v_sharing then
      (select s.token from public.analytics_shares s where s.alias_id = v_link.alias_id) end,
    'can_download_logs', cardinality(v_periods) > 0 and (app.is_staff()
      or app.account_has_feature(v_link.feature_account_id, 'download_logs'))
  );
end;
$$;
comment on function public.link_analytics_access(uuid) is
  'What the caller may do with a link''s analytics: periods, sharing, click log download.';

revoke execute on function public.link_analytics_access(uuid) from public, anon;
grant execute on function public.link_analytics_access(uuid) to authenticated, service_role;

revoke execute on all functions in schema app from public;
