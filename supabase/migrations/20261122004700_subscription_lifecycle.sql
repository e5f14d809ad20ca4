-- The subscription lifecycle after checkout (issue 12, item 2): which account a billing call
-- acts for and whether the caller may manage its plan, whether an account fits a plan's team
-- and member limits, and Stripe subscription schedules as pending downgrades.
--
-- A pending downgrade is a row of public.subscriptions keyed by the schedule's id
-- (billing_type 1, billing_id 'sub_sched_…'): the plan of the schedule's next phase, starting
-- (period_starts_at) when that phase does. Until then app.account_price_id skips it (it only
-- takes rows that have started), so the account keeps its current plan; once the phase starts,
-- Stripe sets the subscription's price and metadata and apply_stripe_subscription moves the
-- subscription row itself to the new plan. A schedule that is released, cancelled or past its
-- next phase leaves the row ended before it started (ends_at = period_starts_at), which every
-- reader skips, and which keeps billing_synced_at so a late event cannot bring it back.

-- ---------------------------------------------------------------------------------------------
-- The account a billing call acts for.

-- Whether the caller may manage an account's plan and billing.
create function app.may_manage_billing(p_account_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select app.has_permission(p_account_id, 'billing')
    or app.has_permission(p_account_id, 'subscriptions')
$$;

-- The caller's personal account (both null), an organization's (p_organization), or a team's
-- (p_organization and p_team; p_organization '_' for a team outside any organization) when the
-- caller may manage its plan: the owner, a team admin (billing), an organization user whose role
-- has `subscriptions` (also on the organization's teams). Null otherwise, and for an unknown
-- account, so the answer does not tell the two apart.
create function app.billing_account(p_organization text, p_team text) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_account uuid;
begin
  if v_uid is null then
    return null;
  end if;
  if p_organization is null and p_team is null then
    select p.personal_account_id into v_account from public.profiles p where p.id = v_uid;
    return v_account;
  elsif p_team is null then
    select o.account_id into v_account from public.organizations o where o.slug = p_organization;
  elsif p_organization = '_' then
    select t.account_id into v_account from public.teams t
    where t.slug = p_team and t.organization_id is null
      and t.account_id in (select app.caller_account_ids());
  else
    select t.account_id into v_account
    from public.teams t join public.organizations o on o.id = t.organization_id
    where o.slug = p_organization and t.slug = p_team;
  end if;
  if v_account is null or not app.may_manage_billing(v_account) then
    return null;
  end if;
  return v_account;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Eligibility: an account may move to a price only if its teams and members fit the price's
-- max_teams and max_members (null or absent: unlimited). An organization counts its teams and
-- its users; a team its members; a person the standalone teams they own and the largest of
-- their memberships.
create function app.plan_fits_account(p_account_id uuid, p_price_id uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_kind text;
  v_owner uuid;
  v_options jsonb;
  v_teams bigint := 0;
  v_members bigint := 0;
begin
  select a.kind, a.owner_id into v_kind, v_owner from public.accounts a where a.id = p_account_id;
  select pp.options into v_options from public.plan_prices pp where pp.id = p_price_id;
  if v_kind is null or v_options is null then
    return false;
  end if;
  if v_kind = 'organization' then
    select count(*) into v_teams
    from public.teams t join public.organizations o on o.id = t.organization_id
    where o.account_id = p_account_id;
    select count(*) into v_members
    from public.organization_users u join public.organizations o on o.id = u.organization_id
    where o.account_id = p_account_id;
  elsif v_kind = 'team' then
    select count(*) into v_members
    from public.team_members m join public.teams t on t.id = m.team_id
    where t.account_id = p_account_id;
  else
    select count(*) into v_teams
    from public.teams t join public.accounts a on a.id = t.account_id
    where t.organization_id is null and a.owner_id = v_owner;
    select coalesce(max(n), 0) into v_members
    from (
      select count(m.*) as n
      from public.teams t
      join public.accounts a on a.id = t.account_id
      left join public.team_members m on m.team_id = t.id
      where t.organization_id is null and a.owner_id = v_owner
      group by t.id
    ) as sizes;
  end if;
  return (jsonb_typeof(v_options -> 'max_teams') is distinct from 'number'
      or v_teams <= (v_options ->> 'max_teams')::bigint)
    and (jsonb_typeof(v_options -> 'max_members') is distinct from 'number'
      or v_members <= (v_options ->> 'max_members')::bigint);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Subscription schedules: the pending downgrade.

create function app.apply_stripe_subscription_schedule(p_schedule jsonb, p_at timestamptz)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_schedule ->> 'id';
  v_subscription_id text := coalesce(p_schedule ->> 'subscription',
    p_schedule ->> 'released_subscription');
  v_current record;
  v_existing record;
  v_phase jsonb;
  v_price record;
  v_starts timestamptz;
begin
  if v_billing_id is null or v_subscription_id is null then
    return 'ignored';
  end if;
  select s.account_id, s.currency into v_current
  from public.subscriptions s where s.billing_type = 1 and s.billing_id = v_subscription_id;
  if not found then
    -- The subscription's own event has not landed yet: Stripe's retry of this one will apply.
    raise exception 'subscription % of schedule % is not recorded yet', v_subscription_id,
      v_billing_id using errcode = '55000';
  end if;
  select s.id, s.billing_synced_at, s.period_starts_at into v_existing
  from public.subscriptions s where s.billing_type = 1 and s.billing_id = v_billing_id
  for update;
  if found and v_existing.billing_synced_at > p_at then
    return 'stale';
  end if;

  -- The phase after the current one, while the schedule still runs.
  if p_schedule ->> 'status' in ('active', 'not_started') then
    select value into v_phase
    from jsonb_array_elements(p_schedule -> 'phases')
    where (value ->> 'start_date')::bigint
      > coalesce((p_schedule -> 'current_phase' ->> 'start_date')::bigint, 0)
    order by (value ->> 'start_date')::bigint
    limit 1;
  end if;

  if v_phase is null then
    if v_existing.id is not null then
      update public.subscriptions
      set ends_at = least(period_starts_at, now()), billing_synced_at = p_at
      where id = v_existing.id;
    end if;
    return 'applied';
  end if;

  select pp.id, pp.plan_id, pp.interval, pp.amount, p.name, p."group" into v_price
  from public.plan_prices pp join public.plans p on p.id = pp.plan_id
  where (v_phase -> 'metadata' ->> 'plan_price_id')
      ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and pp.id = (v_phase -> 'metadata' ->> 'plan_price_id')::uuid;
  if not found then
    return 'ignored';
  end if;
  v_starts := to_timestamp((v_phase ->> 'start_date')::bigint);

  insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
    billing_type, billing_id, interval, amount, currency, period_starts_at, period_ends_at,
    billing_status, billing_synced_at)
  values (v_current.account_id, v_price.plan_id, v_price.id, 'default', v_price.name,
    v_price."group", 1, v_billing_id, v_price.interval, v_price.amount, v_current.currency,
    v_starts, to_timestamp((v_phase ->> 'end_date')::bigint), 'active', p_at)
  on conflict (billing_type, billing_id) do update set
    plan_id = excluded.plan_id, price_id = excluded.price_id, name = excluded.name,
    "group" = excluded."group", interval = excluded.interval, amount = excluded.amount,
    period_starts_at = excluded.period_starts_at, period_ends_at = excluded.period_ends_at,
    ends_at = null, billing_synced_at = excluded.billing_synced_at;
  return 'applied';
end;
$$;

-- The events' dispatcher learns subscription schedules (otherwise as 20261122002800).
create or replace function app.record_stripe_event(p_event jsonb, p_objects jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_processed timestamptz;
  v_at timestamptz;
  v_object jsonb;
  v_result text := 'ignored';
  v_step text;
begin
  if p_event ->> 'id' is null or p_event ->> 'type' is null
    or (p_event ->> 'created') !~ '^\d+$' then
    raise exception 'not a Stripe event' using errcode = '22023';
  end if;
  v_at := to_timestamp((p_event ->> 'created')::bigint);
  insert into public.webhook_events (provider, event_id, type, payload)
  values ('billing-1', p_event ->> 'id', p_event ->> 'type', p_event)
  on conflict (provider, event_id) do update set error = null
  returning id, processed_at into v_id, v_processed;
  if v_processed is not null then
    return 'duplicate';
  end if;

  for v_object in select value from jsonb_array_elements(coalesce(p_objects, '[]'::jsonb)) loop
    v_step := case v_object ->> 'object'
      when 'checkout.session' then app.apply_stripe_checkout(v_object, v_at)
      when 'subscription' then app.apply_stripe_subscription(v_object, v_at)
      when 'subscription_schedule' then app.apply_stripe_subscription_schedule(v_object, v_at)
      when 'invoice' then app.apply_stripe_invoice(v_object, v_at)
      else 'ignored'
    end;
    if v_result = 'ignored' then
      v_result := v_step;
    end if;
  end loop;

  update public.webhook_events set processed_at = now() where id = v_id;
  return v_result;
end;
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.billing_account(text, text), app.may_manage_billing(uuid)
  to authenticated;
grant execute on function app.plan_fits_account(uuid, uuid) to service_role;
