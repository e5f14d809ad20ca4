-- The usage pages (issue 13 item 1, app-shell 3 "Limits data", 9): per count option of the
-- account's plan, what the current period used, the limit (null is unlimited), soft limit and
-- overage, and the period. Read only; enforcement stays where each limit is spent.
--
-- Every figure is read from the counter its enforcement judges by, so the page and the refusal
-- agree: app.link_counts (app.check_link_limits), app.account_domain_counts (domain limits),
-- teams / members with pending invitations (team rules), public.account_usage for redirects,
-- trackable clicks and credits. The period is the UTC month (app.usage_month), the window every
-- monthly counter resets on today. Options that are a per-link allowance or a price
-- (max_recent_urls, max_aliases_per_url, discounted_domain_count, links_with_unlimited_clicks)
-- have no account-wide count: their used is null.
--
-- Readable by whoever may manage the account's billing (app.may_manage_billing: the personal
-- owner, team admins, organization roles with billing/subscriptions) and by staff.

create function public.account_usage(p_account_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_month timestamptz := app.usage_month();
  v_kind text;
  v_owner uuid;
  v_links record;
  v_domains record;
  v_used jsonb;
begin
  select a.kind, a.owner_id into v_kind, v_owner from public.accounts a where a.id = p_account_id;
  -- An unknown account and one the caller may not read answer alike.
  if v_kind is null or not (app.may_manage_billing(p_account_id) or app.is_staff()) then
    perform app.raise_coded('permission_denied');
  end if;

  select coalesce(sum(c.links), 0) as total,
    coalesce(sum(c.links) filter (where c.month >= v_month), 0) as monthly,
    coalesce(sum(c.branded) filter (where c.month >= v_month), 0) as branded,
    coalesce(sum(c.live), 0) as live,
    coalesce(sum(c.live_expiring), 0) as live_expiring
  into v_links
  from app.link_counts c where c.account_id = p_account_id;
  if v_links.live_expiring > 0 then
    -- Live links whose expiry has passed are not active (as app.check_link_limits counts).
    select v_links.total as total, v_links.monthly as monthly, v_links.branded as branded,
      v_links.live - count(*) as live, v_links.live_expiring as live_expiring
    into v_links
    from public.aliases a
    where a.account_id = p_account_id and app.alias_is_active(a.status) and a.expires_at <= now();
  end if;
  select * into v_domains from app.account_domain_counts(p_account_id);

  v_used := jsonb_build_object(
    'max_active_aliases', v_links.live,
    'max_aliases', v_links.total,
    'max_aliases_per_month', v_links.monthly,
    'max_branded_aliases_per_month', v_links.branded,
    'max_domains', v_domains.domains,
    'max_subdomains', v_domains.subdomains,
    'max_domains_subdomains', v_domains.domains + v_domains.subdomains,
    'max_vanity_subdomains', v_domains.vanity,
    'max_teams', case v_kind
      when 'organization' then (
        select count(*) from public.teams t join public.organizations o on o.id = t.organization_id
        where o.account_id = p_account_id)
      when 'personal' then (
        select count(*) from public.teams t join public.accounts a on a.id = t.account_id
        where t.organization_id is null and a.owner_id = v_owner)
      end,
    -- Seats: members and pending invitations, as the invitation seat limit counts them.
    'max_members', case v_kind
      when 'team' then (
        select (select count(*) from public.team_members m where m.team_id = t.id)
          + (select count(*) from public.invitations i
             where i.team_id = t.id and i.status = 'pending')
        from public.teams t where t.account_id = p_account_id)
      when 'organization' then (
        select (select count(*) from public.organization_users u where u.organization_id = o.id)
          + (select count(*) from public.invitations i
             where i.team_id is null and i.organization_id = o.id and i.status = 'pending')
        from public.organizations o where o.account_id = p_account_id)
      end);

  return jsonb_build_object(
    'period_starts_at', v_month,
    'period_ends_at', v_month + interval '1 month',
    'limits', (
      select jsonb_object_agg(o.name, jsonb_build_object(
        'used', case
          when o.name in ('max_redirects', 'max_trackable_clicks') then
            -- Monthly counters: a row last written in an earlier month counts as reset.
            to_jsonb(coalesce(case when u.period_starts_at is null or u.period_starts_at >= v_month
              then u.used else 0 end, 0))
          when o.name in ('max_web_credits', 'max_api_credits') then to_jsonb(coalesce(u.used, 0))
          else v_used -> o.name end,
        'limit', app.account_limit(p_account_id, o.name),
        'soft_limit', u.soft_limit,
        'overage', coalesce(u.overage_enabled, false)))
      from unnest(app.plan_count_options()) as o(name)
      left join public.account_usage u on u.account_id = p_account_id and u.name = o.name));
end;
$$;

comment on function public.account_usage(uuid) is
  'Usage of one account for the usage pages: the period and, per count option, used, limit, '
  'soft_limit, overage.';

revoke execute on function public.account_usage(uuid) from public, anon;
grant execute on function public.account_usage(uuid) to authenticated, service_role;
