-- Usage periods and metered overage (issue 13 items 1-2; app-shell 3 "Limits data", 9 "Overage
-- price"; link-creation 4 "Plan-limit modal").
--
-- The period. Monthly counters (aliases and branded aliases per month, API credits, redirects,
-- trackable clicks) count within the account's usage period:
--   * an account with a paid subscription of its own: month-long windows anchored on the
--     subscription's period start (a monthly plan's window is its billing period; a yearly
--     plan's year is cut into months from the day it started), so a new subscription, or a
--     renewal, starts a new period at once;
--   * any other account (free, a team under its organization's plan): the UTC calendar month.
--     We chose the calendar month over a sign-up anniversary: nothing is billed on it, it is
--     what the link counters are bucketed by (app.link_counts), and the usage page can say
--     "resets on the 1st" without knowing when someone signed up.
--
-- The reset is explicit: app.usage_periods holds each account's current period, and rolling
-- it (app.roll_usage_period: on every change of a subscription, and every minute by cron for
-- periods that ran out) closes the period — its overage becomes a charge, once — and sets the
-- counters of the new one to zero. The counters' lazy "reset when written in an earlier month"
-- (record_clicks, redirects_blocked) would cut anchored periods at every 1st of the month and
-- lose what the closed period used before it is billed, so app.usage_month() now answers
-- -infinity: every row counts as current, the roll resets it.
--
-- Overage. An account with a paid, billable subscription may turn overage on (the owner, or a
-- holder of billing/subscriptions: public.set_overage). Then each overage option below is no
-- longer a wall: links, API calls, redirects and trackable clicks go on past the limit, and at
-- period end the units over (monthly counters: used in the period; active and total links:
-- the count at the close) become one row of public.overage_charges. The overage-report edge
-- function prices it (shared/src/overage.ts: 2 per 100 units, pro-rated) and reports it to the
-- subscription's provider once (the charge id is the idempotency key), where it lands on the
-- next invoice as its own line. Structural limits (domains, vanity subdomains, teams, members)
-- have no overage: they are seats, not consumption.

create or replace function app.usage_month() returns timestamptz
language sql immutable
set search_path = ''
as $$
  -- See the head of migration 20261122006000: counters are reset by app.roll_usage_period.
  select '-infinity'::timestamptz
$$;

create function app.overage_options() returns text[]
language sql immutable
set search_path = ''
as $$
  select array['max_active_aliases', 'max_aliases', 'max_aliases_per_month',
    'max_branded_aliases_per_month', 'max_redirects', 'max_trackable_clicks', 'max_api_credits']
$$;

-- The counters kept in public.account_usage that start again each period.
create function app.monthly_counter_options() returns text[]
language sql immutable
set search_path = ''
as $$
  select array['max_redirects', 'max_trackable_clicks', 'max_api_credits']
$$;

-- The account's own paid subscription that overage is billed on, current at p_at.
create function app.billable_subscription(p_account_id uuid, p_at timestamptz default now())
returns public.subscriptions
language sql stable security definer
set search_path = ''
as $$
  select s.* from public.subscriptions s
  where s.account_id = p_account_id and s.type = 'default' and s.name <> 'free'
    and s.billing_type is not null and s.billing_id is not null
    and s.period_starts_at is not null and s.period_starts_at <= p_at
    and (s.ends_at is null or s.ends_at > p_at)
  order by s.period_starts_at desc, s.created_at desc
  limit 1
$$;

-- The usage period containing p_at (see the head of this file).
create function app.compute_usage_period(p_account_id uuid, p_at timestamptz,
  out starts_at timestamptz, out ends_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_anchor timestamptz := (select s.period_starts_at
    from app.billable_subscription(p_account_id, p_at) s);
  v_age interval;
  v_months integer;
begin
  if v_anchor is null then
    starts_at := date_trunc('month', p_at, 'UTC');
    ends_at := starts_at + interval '1 month';
    return;
  end if;
  -- Months are added to the anchor, never to the previous window, so a period anchored on the
  -- 31st keeps coming back to the 31st (or the month's last day).
  v_age := age(p_at at time zone 'UTC', v_anchor at time zone 'UTC');
  v_months := extract(year from v_age)::integer * 12 + extract(month from v_age)::integer;
  starts_at := v_anchor + make_interval(months => v_months);
  if starts_at > p_at then
    v_months := v_months - 1;
    starts_at := v_anchor + make_interval(months => v_months);
  end if;
  ends_at := v_anchor + make_interval(months => v_months + 1);
end;
$$;

create table app.usage_periods (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null check (ends_at > starts_at)
);
create index usage_periods_ends_at_idx on app.usage_periods (ends_at);
alter table app.usage_periods enable row level security;
revoke all on app.usage_periods from public, anon, authenticated, service_role;

-- The current period: the stored one while it runs, else (not rolled yet) the computed one.
create function app.usage_period(p_account_id uuid,
  out starts_at timestamptz, out ends_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  select p.starts_at, p.ends_at into starts_at, ends_at
  from app.usage_periods p where p.account_id = p_account_id;
  if starts_at is null or ends_at <= now() then
    select c.starts_at, c.ends_at into starts_at, ends_at
    from app.compute_usage_period(p_account_id, now()) c;
  end if;
end;
$$;

-- Links created in [p_from, p_to): all of them and those on non-common domains. Whole UTC
-- months come from app.link_counts; a period starting mid-month counts that month's part from
-- the links themselves (aliases_account_page_idx, bounded by one month).
create function app.period_link_counts(p_account_id uuid, p_from timestamptz,
  p_to timestamptz default 'infinity', out links bigint, out branded bigint)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_whole timestamptz := date_trunc('month', p_from, 'UTC');
  v_links bigint := 0;
  v_branded bigint := 0;
  v_more_links bigint;
  v_more_branded bigint;
begin
  if v_whole < p_from then
    v_whole := v_whole + interval '1 month';
  end if;
  -- The part before the first whole month (or all of a closed period) from the links.
  if v_whole > p_from or p_to <> 'infinity' then
    select count(*), count(*) filter (where d.kind <> 'common') into v_links, v_branded
    from public.aliases a join public.domains d on d.id = a.domain_id
    where a.account_id = p_account_id and a.created_at >= p_from
      and a.created_at < case when p_to = 'infinity' then v_whole else p_to end;
  end if;
  if p_to = 'infinity' then
    select coalesce(sum(c.links), 0), coalesce(sum(c.branded), 0)
    into v_more_links, v_more_branded
    from app.link_counts c where c.account_id = p_account_id and c.month >= v_whole;
    v_links := v_links + v_more_links;
    v_branded := v_branded + v_more_branded;
  end if;
  links := v_links;
  branded := v_branded;
end;
$$;

-- Live links that are active now (live status, not expired), as the limits count them.
create function app.active_link_count(p_account_id uuid) returns bigint
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_live bigint;
  v_expiring bigint;
begin
  select coalesce(sum(c.live), 0), coalesce(sum(c.live_expiring), 0) into v_live, v_expiring
  from app.link_counts c where c.account_id = p_account_id;
  if v_expiring > 0 then
    select v_live - count(*) into v_live
    from public.aliases a
    where a.account_id = p_account_id and app.alias_is_active(a.status) and a.expires_at <= now();
  end if;
  return v_live;
end;
$$;

-- Whether overage is on for one option of the account (only ever on with a billable plan).
create function app.overage_on(p_account_id uuid, p_option text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select u.overage_enabled from public.account_usage u
    where u.account_id = p_account_id and u.name = p_option), false)
$$;

-- ---------------------------------------------------------------------------------------------
-- Charges: one per account and closed period with units over.

create table public.overage_charges (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  subscription_id uuid references public.subscriptions (id) on delete set null,
  billing_type smallint not null check (billing_type in (1, 2)),
  -- The provider's subscription id, kept as it was when the period closed.
  billing_subscription_id text not null,
  currency public.currency_code not null,
  period_starts_at timestamptz not null,
  period_ends_at timestamptz not null,
  -- Units over the limit per option, and their sum.
  units jsonb not null,
  total_units bigint not null check (total_units > 0),
  -- Minor units, set when priced and reported (shared/src/overage.ts).
  amount bigint check (amount >= 0),
  status text not null default 'pending' check (status in ('pending', 'reported', 'failed')),
  provider_item_id text,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  reported_at timestamptz,
  created_at timestamptz not null default now(),
  unique (account_id, period_starts_at)
);
create index overage_charges_due_idx on public.overage_charges (next_attempt_at)
  where status = 'pending';

alter table public.overage_charges enable row level security;
revoke all on public.overage_charges from anon, authenticated;
grant select on public.overage_charges to authenticated;
grant select, update on public.overage_charges to service_role;

create policy "Billing managers can read overage charges" on public.overage_charges
  for select to authenticated
  using (
    account_id in (select app.accounts_with_permission('billing'))
    or account_id in (select app.accounts_with_permission('subscriptions'))
    or (select app.is_staff())
  );

comment on table public.overage_charges is
  'Metered overage of one closed usage period: units over per option, reported once to the '
  'provider as a line of the next invoice.';

-- ---------------------------------------------------------------------------------------------
-- Closing and rolling periods.

-- The overage of [p_starts, p_ends) for the options with overage on: units over per option.
create function app.period_overage_units(p_account_id uuid, p_starts timestamptz,
  p_ends timestamptz) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_result jsonb := '{}'::jsonb;
  v_option text;
  v_limit bigint;
  v_used bigint;
  v_links record;
  v_counted boolean := false;
begin
  foreach v_option in array app.overage_options() loop
    continue when not app.overage_on(p_account_id, v_option);
    v_limit := app.account_limit(p_account_id, v_option);
    continue when v_limit is null;
    if v_option in ('max_aliases_per_month', 'max_branded_aliases_per_month') then
      if not v_counted then
        select * into v_links from app.period_link_counts(p_account_id, p_starts, p_ends);
        v_counted := true;
      end if;
      v_used := case v_option when 'max_aliases_per_month' then v_links.links
        else v_links.branded end;
    elsif v_option = 'max_active_aliases' then
      v_used := app.active_link_count(p_account_id);
    elsif v_option = 'max_aliases' then
      v_used := coalesce((select sum(c.links) from app.link_counts c
        where c.account_id = p_account_id), 0);
    else
      v_used := coalesce((select u.used from public.account_usage u
        where u.account_id = p_account_id and u.name = v_option), 0);
    end if;
    if v_used > v_limit then
      v_result := v_result || jsonb_build_object(v_option, v_used - v_limit);
    end if;
  end loop;
  return v_result;
end;
$$;

-- Closes the account's stored period if another has begun: its overage becomes a charge (once,
-- on the subscription that was billable in it), the monthly counters start again at zero and the
-- new period is stored. Overage is switched off when no billable subscription is left (nothing
-- could pay for it). Safe to call any number of times.
create function app.roll_usage_period(p_account_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_stored app.usage_periods;
  v_current record;
  v_closed_end timestamptz;
  v_units jsonb;
  v_total bigint;
  v_subscription public.subscriptions;
  v_next timestamptz;
begin
  select * into v_current from app.compute_usage_period(p_account_id, now());
  -- A subscription period that starts later (a provider's clock ahead of ours, a scheduled
  -- phase) ends this period there, so the cron job rolls it in when it begins.
  select min(s.period_starts_at) into v_next from public.subscriptions s
  where s.account_id = p_account_id and s.type = 'default' and s.name <> 'free'
    and s.billing_id is not null and s.period_starts_at > now()
    and (s.ends_at is null or s.ends_at > s.period_starts_at);
  if v_next < v_current.ends_at then
    v_current.ends_at := v_next;
  end if;
  select * into v_stored from app.usage_periods p where p.account_id = p_account_id for update;
  if not found then
    insert into app.usage_periods (account_id, starts_at, ends_at)
    values (p_account_id, v_current.starts_at, v_current.ends_at)
    on conflict (account_id) do nothing;
    return;
  end if;
  if v_stored.starts_at = v_current.starts_at then
    if v_stored.ends_at <> v_current.ends_at then
      update app.usage_periods set ends_at = v_current.ends_at where account_id = p_account_id;
    end if;
    return;
  end if;

  -- The stored period ended where the new one starts (a renewal, a new subscription), at its
  -- own end, or now (the subscription ended: the new period is the calendar month's rest).
  v_closed_end := least(v_stored.ends_at,
    case when v_current.starts_at > v_stored.starts_at then v_current.starts_at else now() end);
  -- The paid subscription the period ran on: a renewal has already moved its row's period on.
  select s.* into v_subscription from public.subscriptions s
  where s.account_id = p_account_id and s.type = 'default' and s.name <> 'free'
    and s.billing_type is not null and s.billing_id is not null
    and s.period_starts_at is not null and s.period_starts_at <= now()
    and (s.ends_at is null or s.ends_at > v_stored.starts_at)
  order by s.period_starts_at desc, s.created_at desc
  limit 1;
  if v_subscription.id is not null and v_closed_end > v_stored.starts_at then
    v_units := app.period_overage_units(p_account_id, v_stored.starts_at, v_closed_end);
    v_total := (select coalesce(sum(value::bigint), 0) from jsonb_each_text(v_units));
    if v_total > 0 then
      insert into public.overage_charges (account_id, subscription_id, billing_type,
        billing_subscription_id, currency, period_starts_at, period_ends_at, units, total_units)
      values (p_account_id, v_subscription.id, v_subscription.billing_type,
        v_subscription.billing_id, coalesce(v_subscription.currency, 'USD'),
        v_stored.starts_at, v_closed_end, v_units, v_total)
      on conflict (account_id, period_starts_at) do nothing;
    end if;
  end if;

  update public.account_usage u
  set used = 0, overage = 0, period_starts_at = v_current.starts_at
  where u.account_id = p_account_id and u.name = any (app.monthly_counter_options());
  -- A redirector that learned the account was out of redirects asks again at once.
  if exists (select 1 from public.account_usage u
      where u.account_id = p_account_id and u.name = 'max_redirects') then
    perform pg_notify('account_limits', p_account_id::text);
  end if;
  if (app.billable_subscription(p_account_id)).id is null then
    update public.account_usage u set overage_enabled = false
    where u.account_id = p_account_id and u.overage_enabled;
  end if;
  update app.usage_periods
  set starts_at = v_current.starts_at, ends_at = v_current.ends_at
  where account_id = p_account_id;
end;
$$;

-- The cron job: every period that ran out is rolled (a bounded batch per run).
create function app.roll_usage_periods(p_batch integer default 500) returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_account uuid;
  v_count integer := 0;
begin
  for v_account in
    select p.account_id from app.usage_periods p where p.ends_at <= now()
    order by p.ends_at limit p_batch
  loop
    perform app.roll_usage_period(v_account);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;

select cron.schedule('usage-periods-roll', '* * * * *', $$select app.roll_usage_periods()$$);

-- A subscription that starts, renews, changes or ends moves the period at once.
create function app.subscriptions_roll_usage() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.type = 'default' then
    perform app.roll_usage_period(new.account_id);
  end if;
  return null;
end;
$$;

create trigger subscriptions_roll_usage_on_insert after insert on public.subscriptions
  for each row execute function app.subscriptions_roll_usage();
create trigger subscriptions_roll_usage_on_update after update on public.subscriptions
  for each row when ((old.period_starts_at, old.ends_at, old.billing_id, old.name)
    is distinct from (new.period_starts_at, new.ends_at, new.billing_id, new.name))
  execute function app.subscriptions_roll_usage();

-- Every account that counts anything has its period stored (so that the cron job finds it), and
-- a counter written for an earlier period (a row restored, staff's hand) starts at zero.
-- record_clicks writes -infinity (app.usage_month()): "the current period", never stale.
create function app.account_usage_store_period() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_start timestamptz;
begin
  select p.starts_at into v_start from app.usage_periods p where p.account_id = new.account_id;
  if v_start is null then
    perform app.roll_usage_period(new.account_id);
    select p.starts_at into v_start from app.usage_periods p where p.account_id = new.account_id;
  end if;
  if new.name = any (app.monthly_counter_options()) and new.period_starts_at > '-infinity'
    and new.period_starts_at < v_start then
    update public.account_usage u set used = 0, overage = 0, period_starts_at = v_start
    where u.account_id = new.account_id and u.name = new.name;
  end if;
  return null;
end;
$$;

create trigger account_usage_store_period after insert on public.account_usage
  for each row execute function app.account_usage_store_period();

insert into app.usage_periods (account_id, starts_at, ends_at)
select a.account_id, c.starts_at, c.ends_at
from (select distinct u.account_id from public.account_usage u) as a
cross join lateral app.compute_usage_period(a.account_id, now()) as c
on conflict (account_id) do nothing;

-- Counters last written before their account's period started belong to a period gone by.
update public.account_usage u set used = 0, overage = 0, period_starts_at = p.starts_at
from app.usage_periods p
where p.account_id = u.account_id and u.name = any (app.monthly_counter_options())
  and u.period_starts_at < p.starts_at;

-- ---------------------------------------------------------------------------------------------
-- Turning overage on and off ("Manage Overages").

create function public.set_overage(p_account_id uuid, p_enabled boolean) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_account_id is null or not app.may_manage_billing(p_account_id) then
    perform app.raise_coded('permission_denied');
  end if;
  if p_enabled is null then
    raise exception using errcode = 'PT422', message = 'validation_failed',
      detail = 'The enabled field must be true or false.', hint = 'enabled';
  end if;
  if p_enabled and (app.billable_subscription(p_account_id)).id is null then
    raise exception using errcode = 'PT422', message = 'overage_needs_subscription',
      detail = 'Overages need a paid plan. Upgrade your plan to turn them on.', hint = 'form';
  end if;
  perform app.roll_usage_period(p_account_id);
  insert into public.account_usage as u (account_id, name, overage_enabled)
  select p_account_id, o.name, p_enabled from unnest(app.overage_options()) as o(name)
  on conflict (account_id, name) do update set overage_enabled = excluded.overage_enabled;
  return public.account_usage(p_account_id);
end;
$$;

revoke execute on function public.set_overage(uuid, boolean) from public, anon;
grant execute on function public.set_overage(uuid, boolean) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Enforcement in the period, each limit waived while its overage is on.

create or replace function app.check_link_limits(
  p_account_id uuid, p_branded boolean, p_new boolean
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if app.link_capacity_left(p_account_id, p_branded, p_new, true) = 0 then
    perform app.link_error('plan_limit_reached');
  end if;
end;
$$;

-- How many more links the limits leave (null: no limit applies). p_new: the links are new (the
-- monthly and total limits count them; a restored link only counts as active). p_quick: the
-- caller needs only "any left": the expiring live links are counted one by one only when the
-- live count's upper bound reaches the limit.
create function app.link_capacity_left(p_account_id uuid, p_branded boolean, p_new boolean,
  p_quick boolean) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_active_limit bigint := app.account_limit(p_account_id, 'max_active_aliases');
  v_monthly_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases_per_month') end;
  v_branded_limit bigint := case when p_new and p_branded
    then app.account_limit(p_account_id, 'max_branded_aliases_per_month') end;
  v_total_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases') end;
  v_period record;
  v_period_links bigint;
  v_period_branded bigint;
  v_live bigint;
  v_expiring bigint;
  v_total bigint;
begin
  if app.overage_on(p_account_id, 'max_active_aliases') then v_active_limit := null; end if;
  if app.overage_on(p_account_id, 'max_aliases_per_month') then v_monthly_limit := null; end if;
  if app.overage_on(p_account_id, 'max_branded_aliases_per_month') then
    v_branded_limit := null;
  end if;
  if app.overage_on(p_account_id, 'max_aliases') then v_total_limit := null; end if;
  if v_active_limit is null and v_monthly_limit is null and v_branded_limit is null
    and v_total_limit is null then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('links:' || p_account_id::text, 0));
  select coalesce(sum(c.links), 0), coalesce(sum(c.live), 0), coalesce(sum(c.live_expiring), 0)
  into v_total, v_live, v_expiring
  from app.link_counts c where c.account_id = p_account_id;
  if v_active_limit is not null and v_expiring > 0
    and (not p_quick or v_live >= v_active_limit) then
    v_live := app.active_link_count(p_account_id);
  end if;
  if v_monthly_limit is not null or v_branded_limit is not null then
    select * into v_period from app.usage_period(p_account_id);
    select c.links, c.branded into v_period_links, v_period_branded
    from app.period_link_counts(p_account_id, v_period.starts_at) c;
  end if;
  -- least() skips nulls: only the limits that exist take part.
  return greatest(0, least(
    v_active_limit - v_live, v_monthly_limit - v_period_links,
    v_branded_limit - v_period_branded, v_total_limit - v_total));
end;
$$;

-- Bulk: the same rule, for a chunk of new links.
create or replace function app.link_capacity(p_account_id uuid, p_branded boolean) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  return app.link_capacity_left(p_account_id, p_branded, true, false);
end;
$$;

-- Credits (API and web): spending past the limit is allowed while the option's overage is on.
create or replace function app.spend_usage(p_account_id uuid, p_option text, p_cost integer)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_limit bigint := app.account_limit(p_account_id, p_option);
  v_used bigint;
  v_overage boolean;
begin
  if v_limit is null or p_cost = 0 then
    return true;
  end if;
  insert into public.account_usage (account_id, name) values (p_account_id, p_option)
  on conflict (account_id, name) do nothing;
  select u.used, u.overage_enabled into v_used, v_overage from public.account_usage u
  where u.account_id = p_account_id and u.name = p_option
  for update;
  if v_limit - v_used < p_cost and not v_overage then
    return false;
  end if;
  update public.account_usage
  set used = used + p_cost, overage = greatest(used + p_cost - v_limit, 0)
  where account_id = p_account_id and name = p_option;
  return true;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The usage pages: the period is the account's, each option says whether overage is on, how
-- many units are over, and the last charges.

create or replace function public.account_usage(p_account_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_period record;
  v_kind text;
  v_owner uuid;
  v_total bigint;
  v_period_links record;
  v_domains record;
  v_used jsonb;
  v_limits jsonb;
begin
  select a.kind, a.owner_id into v_kind, v_owner from public.accounts a where a.id = p_account_id;
  -- An unknown account and one the caller may not read answer alike.
  if v_kind is null or not (app.may_manage_billing(p_account_id) or app.is_staff()) then
    perform app.raise_coded('permission_denied');
  end if;
  select * into v_period from app.usage_period(p_account_id);
  select coalesce(sum(c.links), 0) into v_total
  from app.link_counts c where c.account_id = p_account_id;
  select * into v_period_links from app.period_link_counts(p_account_id, v_period.starts_at);
  select * into v_domains from app.account_domain_counts(p_account_id);

  v_used := jsonb_build_object(
    'max_active_aliases', app.active_link_count(p_account_id),
    'max_aliases', v_total,
    'max_aliases_per_month', v_period_links.links,
    'max_branded_aliases_per_month', v_period_links.branded,
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

  select jsonb_object_agg(x.name, jsonb_build_object(
      'used', x.used, 'limit', x.lim, 'soft_limit', x.soft_limit, 'overage', x.overage,
      'over', case when x.overage and x.lim is not null and (x.used #>> '{}')::bigint > x.lim
        then (x.used #>> '{}')::bigint - x.lim else 0 end))
  into v_limits
  from (
    select o.name,
      case
        when o.name in ('max_redirects', 'max_trackable_clicks', 'max_web_credits',
          'max_api_credits') then to_jsonb(coalesce(u.used, 0))
        else coalesce(v_used -> o.name, 'null'::jsonb) end as used,
      app.account_limit(p_account_id, o.name) as lim,
      u.soft_limit,
      coalesce(u.overage_enabled, false) and o.name = any (app.overage_options()) as overage
    from unnest(app.plan_count_options()) as o(name)
    left join public.account_usage u on u.account_id = p_account_id and u.name = o.name
  ) as x;

  return jsonb_build_object(
    'period_starts_at', v_period.starts_at,
    'period_ends_at', v_period.ends_at,
    'overage_available', (app.billable_subscription(p_account_id)).id is not null,
    'currency', coalesce((app.billable_subscription(p_account_id)).currency::text, 'USD'),
    'limits', v_limits,
    'charges', coalesce((
      select jsonb_agg(jsonb_build_object('id', c.id, 'period_starts_at', c.period_starts_at,
          'period_ends_at', c.period_ends_at, 'units', c.total_units, 'amount', c.amount,
          'currency', c.currency, 'status', c.status, 'reported_at', c.reported_at)
        order by c.period_starts_at desc)
      from (select * from public.overage_charges c where c.account_id = p_account_id
        order by c.period_starts_at desc limit 6) as c), '[]'::jsonb));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Reporting: the cron job wakes the overage-report function while a charge is due.

create table app.overage_settings (
  id boolean primary key default true check (id),
  report_url text,
  report_key text,
  batch_size integer not null default 20 check (batch_size between 1 and 500),
  -- A failed report waits retry_base_seconds * 2^(attempts-1); after max_attempts it is failed.
  retry_base_seconds integer not null default 60 check (retry_base_seconds >= 1),
  max_attempts integer not null default 8 check (max_attempts >= 1)
);
insert into app.overage_settings default values;
alter table app.overage_settings enable row level security;
revoke all on app.overage_settings from public, anon, authenticated, service_role;

comment on table app.overage_settings is
  'Where the cron job wakes the overage-report function. Production sets once: update '
  'app.overage_settings set report_url = ''https://<ref>.supabase.co/functions/v1/'
  'overage-report'', report_key = ''<service role key>''.';

create function app.kick_overage_report() returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.overage_settings;
begin
  select * into v_settings from app.overage_settings;
  if v_settings.report_url is null or not exists (
    select 1 from public.overage_charges c
    where c.status = 'pending' and c.next_attempt_at <= now()
  ) then
    return null;
  end if;
  return net.http_post(
    url => v_settings.report_url,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.report_key),
    timeout_milliseconds => 60000);
end;
$$;

select cron.schedule('overage-report', '5 seconds', $$select app.kick_overage_report()$$);

-- The function claims due charges: each is pushed back by the retry delay while it is being
-- reported, so a run that dies leaves it due again later, never twice at once.
create function app.claim_overage_charges(p_limit integer) returns setof public.overage_charges
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.overage_settings;
begin
  select * into v_settings from app.overage_settings;
  return query
    update public.overage_charges c
    set attempts = c.attempts + 1,
      next_attempt_at = now() + make_interval(secs => v_settings.retry_base_seconds
        * power(2, c.attempts)::integer)
    where c.id in (
      select d.id from public.overage_charges d
      where d.status = 'pending' and d.next_attempt_at <= now()
      order by d.next_attempt_at
      limit p_limit
      for update skip locked)
    returning c.*;
end;
$$;

create function app.record_overage_report(p_charge_id uuid, p_amount bigint,
  p_provider_item_id text, p_error text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_max integer := (select s.max_attempts from app.overage_settings s);
begin
  if p_error is null then
    update public.overage_charges
    set status = 'reported', amount = p_amount, provider_item_id = p_provider_item_id,
      reported_at = now(), last_error = null
    where id = p_charge_id and status = 'pending';
  else
    update public.overage_charges
    set amount = p_amount, last_error = left(p_error, 1000),
      status = case when attempts >= v_max then 'failed' else 'pending' end
    where id = p_charge_id and status = 'pending';
  end if;
end;
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.usage_period(uuid), app.overage_on(uuid, text)
  to authenticated, service_role;
