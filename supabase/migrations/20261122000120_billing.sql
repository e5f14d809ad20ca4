-- Plans and prices, subscriptions, billing customers, invoices, orders, coupons, usage and
-- limits; and the helpers that read an account's plan (app.account_has_feature,
-- app.account_limit, app.is_subscribed).
--
-- Plan options are a jsonb object validated by app.valid_plan_options rather than twenty typed
-- columns: the spec passes them around as one `options` object, most are sparse (an absent
-- option means unlimited), app.account_limit looks them up by name, and the check still refuses
-- unknown names and values of the wrong type.

-- ---------------------------------------------------------------------------------------------
-- Plan options.

-- The spec's count options (app-shell 3 "Plan options"); null or absent means unlimited.
-- max_teams and max_members are ours: the team rules (team_limit_reached) need a figure.
create function app.plan_count_options() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array[
    'max_redirects', 'max_recent_urls', 'max_web_credits', 'discounted_domain_count',
    'max_active_aliases', 'max_aliases', 'max_aliases_per_url', 'max_api_credits',
    'max_vanity_subdomains', 'max_domains', 'max_subdomains', 'max_domains_subdomains',
    'links_with_unlimited_clicks', 'max_trackable_clicks', 'max_branded_aliases_per_month',
    'max_aliases_per_month', 'max_teams', 'max_members'
  ]::text[]
$$;

create function app.valid_plan_options(p_options jsonb) returns boolean
language plpgsql immutable security definer
set search_path = ''
as $$
declare
  v_key text;
  v_value jsonb;
begin
  if p_options is null or jsonb_typeof(p_options) <> 'object' then
    return false;
  end if;
  for v_key, v_value in select key, value from jsonb_each(p_options) loop
    if v_key = any (app.plan_count_options()) then
      if not (
        jsonb_typeof(v_value) = 'null'
        or (jsonb_typeof(v_value) = 'number' and (v_value #>> '{}')::numeric >= 0
            and (v_value #>> '{}')::numeric = trunc((v_value #>> '{}')::numeric))
      ) then
        return false;
      end if;
    elsif v_key in ('analytics_enabled', 'analytics_public') then
      if jsonb_typeof(v_value) <> 'boolean' then
        return false;
      end if;
    elsif v_key in ('alias_lifetime', 'analytics_period') then
      -- An ISO 8601 duration such as P90D or P2Y (Postgres reads it as an interval).
      if jsonb_typeof(v_value) <> 'string' or (v_value #>> '{}') !~
        '^P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$' then
        return false;
      end if;
    else
      return false;
    end if;
  end loop;
  return true;
end;
$$;

grant execute on function app.plan_count_options(), app.valid_plan_options(jsonb)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Plans and prices (the spec's "Plan definition").

create table public.plans (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  "group" text not null check (char_length("group") between 1 and 50),
  -- Position on the pricing page's plan slider.
  slide integer check (slide >= 0),
  popular boolean not null default false,
  hidden boolean not null default false,
  active boolean not null default true,
  type text not null default 'user' check (type in ('user', 'team', 'organization')),
  trial_days integer not null default 0 check (trial_days >= 0),
  -- Days after sign-up before the trial is offered.
  trial_delay integer not null default 0 check (trial_delay >= 0),
  trial_available boolean not null default false,
  force_payment_method boolean not null default false,
  custom boolean not null default false,
  allow_interval_downgrade boolean not null default true,
  force_billing_address boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint plans_trial_needs_days check (not trial_available or trial_days > 0)
);

create table public.plan_prices (
  id uuid primary key default gen_random_uuid(),
  plan_id uuid not null references public.plans (id) on delete cascade,
  active boolean not null default true,
  interval text not null check (interval in ('monthly', 'yearly')),
  -- Minor units.
  amount bigint not null check (amount >= 0),
  currency public.currency_code,
  features public.feature_list,
  options jsonb not null default '{}' check (app.valid_plan_options(options)),
  -- The count option this price is metered by (overage billing), if any.
  metered_by text check (metered_by is null or metered_by = any (app.plan_count_options())),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index plan_prices_plan_id_idx on public.plan_prices (plan_id);
create unique index plan_prices_one_active_per_interval_idx
  on public.plan_prices (plan_id, interval, currency) where active;

-- ---------------------------------------------------------------------------------------------
-- Subscriptions.

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  plan_id uuid references public.plans (id) on delete restrict,
  price_id uuid references public.plan_prices (id) on delete restrict,
  type text not null default 'default' check (type in ('default', 'addon', 'shopping-cart')),
  -- The plan's name and group when subscribed ("free" makes a free subscription).
  name text not null,
  "group" text,
  hidden boolean not null default false,
  billing_type smallint check (billing_type in (1, 2)),
  -- The provider's id for this subscription.
  billing_id text,
  interval text not null default 'yearly' check (interval in ('monthly', 'yearly')),
  amount bigint not null default 0 check (amount >= 0),
  currency public.currency_code,
  quantity integer not null default 1 check (quantity >= 1),
  trial_available boolean not null default false,
  ends_at timestamptz,
  trial_ends_at timestamptz,
  period_starts_at timestamptz,
  period_ends_at timestamptz,
  billing_status text check (billing_status in (
    'active', 'trialing', 'past_due', 'incomplete', 'canceled', 'unpaid', 'paused'
  )),
  -- Derived facts the spec lists as fields.
  active boolean not null generated always as (ends_at is null) stored,
  is_free boolean not null generated always as (name = 'free') stored,
  is_past_due boolean not null generated always as (coalesce(billing_status = 'past_due', false)) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (billing_type, billing_id),
  constraint subscriptions_period_order check (period_ends_at is null or period_starts_at is null
    or period_ends_at >= period_starts_at)
);
create index subscriptions_account_id_idx on public.subscriptions (account_id, type);
create index subscriptions_plan_id_idx on public.subscriptions (plan_id);
create index subscriptions_price_id_idx on public.subscriptions (price_id);

-- ---------------------------------------------------------------------------------------------
-- Billing customers, invoices, orders, coupons.

create table public.billing_customers (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  billing_type smallint not null check (billing_type in (1, 2)),
  billing_id text not null,
  pm_type text check (char_length(pm_type) <= 50),
  pm_last_four text check (pm_last_four ~ '^[0-9]{4}$'),
  -- MM/YYYY as the providers report it.
  pm_expiration text check (pm_expiration ~ '^(0[1-9]|1[0-2])/[0-9]{4}$'),
  pm_country text check (pm_country ~ '^[A-Z]{2}$'),
  is_preferred boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, billing_type),
  unique (billing_type, billing_id)
);
create unique index billing_customers_one_preferred_idx
  on public.billing_customers (account_id) where is_preferred;

create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[A-Z0-9_-]{3,64}$'),
  amount_off bigint check (amount_off > 0),
  percent_off numeric(5, 2) check (percent_off > 0 and percent_off <= 100),
  currency public.currency_code,
  -- Intervals the coupon applies to (the Black Friday coupon: yearly only).
  intervals text[] not null default '{monthly,yearly}'
    check (intervals <@ '{monthly,yearly}'::text[] and cardinality(intervals) > 0),
  starts_at timestamptz,
  ends_at timestamptz,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint coupons_one_discount check ((amount_off is null) <> (percent_off is null)),
  constraint coupons_window check (ends_at is null or starts_at is null or ends_at > starts_at)
);

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  -- 0 new; 16 authorizing; 17 authorized; 18 authorization expired; 19 fraud review;
  -- 32 processing; 33 processed; 48 paid; 49 payment cancelled; 50 payment failed; 51 refunded.
  status smallint not null default 0
    check (status in (0, 16, 17, 18, 19, 32, 33, 48, 49, 50, 51)),
  billing_type smallint check (billing_type in (1, 2)),
  billing_id text,
  amount bigint not null default 0 check (amount >= 0),
  currency public.currency_code,
  coupon_id uuid references public.coupons (id) on delete set null,
  -- Where the purchase started (e.g. freetrial sends the success page to verification).
  purchase_source text check (purchase_source ~ '^[a-z0-9_-]{1,50}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (billing_type, billing_id)
);
create index orders_account_id_idx on public.orders (account_id, created_at desc);
create index orders_user_id_idx on public.orders (user_id);
create index orders_coupon_id_idx on public.orders (coupon_id);

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  kind text not null check (kind in ('domain', 'subscription')),
  description text not null check (char_length(description) between 1 and 255),
  quantity integer not null default 1 check (quantity >= 1),
  amount bigint not null check (amount >= 0),
  created_at timestamptz not null default now()
);
create index order_items_order_id_idx on public.order_items (order_id);

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  subscription_id uuid references public.subscriptions (id) on delete set null,
  order_id uuid references public.orders (id) on delete set null,
  billing_type smallint not null check (billing_type in (1, 2)),
  billing_id text not null,
  number text,
  amount bigint not null check (amount >= 0),
  currency public.currency_code,
  status text not null default 'open'
    check (status in ('draft', 'open', 'paid', 'void', 'uncollectible', 'refunded')),
  url text check (url is null or url ~ '^https://'),
  issued_at timestamptz not null default now(),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  unique (billing_type, billing_id)
);
create index invoices_account_id_idx on public.invoices (account_id, issued_at desc);
create index invoices_subscription_id_idx on public.invoices (subscription_id);
create index invoices_order_id_idx on public.invoices (order_id);

-- ---------------------------------------------------------------------------------------------
-- Usage and limits per account (the spec's "Limits data": used, limit, soft_limit, overage).

create table public.account_usage (
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (name = any (app.plan_count_options())),
  used bigint not null default 0 check (used >= 0),
  -- A limit staff set for this account instead of its plan's; null follows the plan.
  "limit" bigint check ("limit" >= 0),
  soft_limit bigint check (soft_limit >= 0),
  overage bigint not null default 0 check (overage >= 0),
  -- The account holder's switch: keep going past the limit and pay the overage.
  overage_enabled boolean not null default false,
  period_starts_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (account_id, name)
);

-- ---------------------------------------------------------------------------------------------
-- Triggers.

create trigger plans_touch_updated_at before update on public.plans
  for each row execute function app.touch_updated_at();
create trigger plan_prices_touch_updated_at before update on public.plan_prices
  for each row execute function app.touch_updated_at();
create trigger subscriptions_touch_updated_at before update on public.subscriptions
  for each row execute function app.touch_updated_at();
create trigger billing_customers_touch_updated_at before update on public.billing_customers
  for each row execute function app.touch_updated_at();
create trigger coupons_touch_updated_at before update on public.coupons
  for each row execute function app.touch_updated_at();
create trigger orders_touch_updated_at before update on public.orders
  for each row execute function app.touch_updated_at();
create trigger account_usage_touch_updated_at before update on public.account_usage
  for each row execute function app.touch_updated_at();
create trigger account_usage_protect_counters before update on public.account_usage
  for each row execute function app.protect_columns('nobody', 'account_id', 'name', 'used', 'overage');
create trigger account_usage_protect_limits before update on public.account_usage
  for each row execute function app.protect_columns('staff', 'limit', 'soft_limit');

-- ---------------------------------------------------------------------------------------------
-- Plan helpers.

-- The price an account's plan comes from: its current default subscription; for a team inside
-- an organization without one, the organization's; otherwise the free plan's price.
create function app.account_price_id(p_account_id uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  with candidates as (
    select 0 as rank, p_account_id as account_id
    union all
    select 1, o.account_id
    from public.teams t join public.organizations o on o.id = t.organization_id
    where t.account_id = p_account_id
  )
  select coalesce(
    (
      select s.price_id
      from candidates c
      join public.subscriptions s on s.account_id = c.account_id
      where s.type = 'default' and s.price_id is not null
        and (s.period_starts_at is null or s.period_starts_at <= now())
        and (s.ends_at is null or s.ends_at > now())
      order by c.rank, s.created_at desc
      limit 1
    ),
    (
      select pp.id
      from public.plans p join public.plan_prices pp on pp.plan_id = p.id
      where p.name = 'free' and pp.active
      order by pp.interval = 'yearly' desc
      limit 1
    )
  )
$$;

create function app.account_has_feature(p_account_id uuid, p_feature text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  begin
    perform array[p_feature]::public.feature_list;
  exception when check_violation or not_null_violation then
    raise exception 'unknown feature "%"', p_feature using errcode = '22023';
  end;
  return exists (
    -- The account's own list, and for a team inside an organization the organization's.
    select 1 from public.accounts a
    where a.id = p_account_id and p_feature = any (a.features)
    union all
    select 1
    from public.teams t
    join public.organizations o on o.id = t.organization_id
    join public.accounts oa on oa.id = o.account_id
    where t.account_id = p_account_id and p_feature = any (oa.features)
    union all
    select 1 from public.plan_prices pp
    where pp.id = app.account_price_id(p_account_id) and p_feature = any (pp.features)
  );
end;
$$;

-- A count option of the account's plan, or the limit staff set for the account; null is
-- unlimited.
create function app.account_limit(p_account_id uuid, p_option text) returns bigint
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_override bigint;
begin
  if p_option is null or not p_option = any (app.plan_count_options()) then
    raise exception 'unknown limit option "%"', p_option using errcode = '22023';
  end if;
  select u."limit" into v_override
  from public.account_usage u
  where u.account_id = p_account_id and u.name = p_option;
  if v_override is not null then
    return v_override;
  end if;
  return (
    select (pp.options ->> p_option)::bigint
    from public.plan_prices pp
    where pp.id = app.account_price_id(p_account_id)
  );
end;
$$;

create function app.is_subscribed(p_user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.profiles p
    join public.subscriptions s on s.account_id = p.personal_account_id
    where p.id = p_user_id and s.type = 'default' and s.name <> 'free'
      and (s.period_starts_at is null or s.period_starts_at <= now())
      and (s.ends_at is null or s.ends_at > now())
  )
$$;

grant execute on function app.account_price_id(uuid), app.account_has_feature(uuid, text),
  app.account_limit(uuid, text), app.is_subscribed(uuid)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Coupons are looked up by code only (never listed): the pricing page sends ?coupon=CODE.

create function public.find_coupon(p_code text)
returns table (code text, amount_off bigint, percent_off numeric, currency text, intervals text[])
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select c.code, c.amount_off, c.percent_off, c.currency::text, c.intervals
    from public.coupons c
    where c.code = upper(btrim(coalesce(p_code, ''))) and c.active
      and (c.starts_at is null or c.starts_at <= now())
      and (c.ends_at is null or c.ends_at > now());
  if not found then
    raise exception using errcode = 'PT404', message = 'coupon_not_found',
      detail = 'Coupon not found.', hint = 'coupon';
  end if;
end;
$$;
revoke execute on function public.find_coupon(text) from public;
grant execute on function public.find_coupon(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.plans enable row level security;
alter table public.plan_prices enable row level security;
alter table public.subscriptions enable row level security;
alter table public.billing_customers enable row level security;
alter table public.coupons enable row level security;
alter table public.orders enable row level security;
alter table public.order_items enable row level security;
alter table public.invoices enable row level security;
alter table public.account_usage enable row level security;

-- Plans and prices: the public catalogue is reference data for the pricing page.
create policy "Anyone can read public plans" on public.plans
  for select to anon, authenticated
  using (active and not hidden);

create policy "Subscribers can read the plan they are on" on public.plans
  for select to authenticated
  using (id in (select s.plan_id from public.subscriptions s));

create policy "Staff can manage plans" on public.plans
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Anyone can read the active prices of public plans" on public.plan_prices
  for select to anon, authenticated
  using (active and plan_id in (select p.id from public.plans p where p.active and not p.hidden));

create policy "Subscribers can read the price they pay" on public.plan_prices
  for select to authenticated
  using (id in (select s.price_id from public.subscriptions s));

create policy "Staff can manage prices" on public.plan_prices
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

-- Subscriptions: every member sees the plan their account is on; billing data is for billing
-- managers (billing on teams and personal accounts, subscriptions on organizations).
create policy "Members can read their accounts' subscriptions" on public.subscriptions
  for select to authenticated
  using (account_id in (select app.caller_account_ids()));

create policy "Staff can read every subscription" on public.subscriptions
  for select to authenticated
  using ((select app.is_staff()));

create policy "Billing managers can read billing customers" on public.billing_customers
  for select to authenticated
  using (
    account_id in (select app.accounts_with_permission('billing'))
    or account_id in (select app.accounts_with_permission('subscriptions'))
  );

create policy "Staff can read every billing customer" on public.billing_customers
  for select to authenticated
  using ((select app.is_staff()));

create policy "Billing managers can read invoices" on public.invoices
  for select to authenticated
  using (
    account_id in (select app.accounts_with_permission('billing'))
    or account_id in (select app.accounts_with_permission('subscriptions'))
  );

create policy "Staff can read every invoice" on public.invoices
  for select to authenticated
  using ((select app.is_staff()));

create policy "Billing managers can read orders" on public.orders
  for select to authenticated
  using (
    account_id in (select app.accounts_with_permission('billing'))
    or account_id in (select app.accounts_with_permission('subscriptions'))
  );

create policy "Staff can read every order" on public.orders
  for select to authenticated
  using ((select app.is_staff()));

create policy "Billing managers can read order items" on public.order_items
  for select to authenticated
  using (order_id in (select o.id from public.orders o));

create policy "Staff can manage coupons" on public.coupons
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Members can read their accounts' usage" on public.account_usage
  for select to authenticated
  using (account_id in (select app.caller_account_ids()));

create policy "Billing managers can switch overages" on public.account_usage
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('billing')))
  with check (account_id in (select app.accounts_with_permission('billing')));

create policy "Staff can read and set usage limits" on public.account_usage
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

-- Privileges: billing rows are written by edge functions (service role) from provider events.
revoke all on public.subscriptions, public.billing_customers, public.coupons, public.orders,
  public.order_items, public.invoices, public.account_usage from anon;
revoke insert, update, delete, truncate, references, trigger on public.plans, public.plan_prices
  from anon;
revoke truncate, references, trigger on public.plans, public.plan_prices, public.subscriptions,
  public.billing_customers, public.coupons, public.orders, public.order_items, public.invoices,
  public.account_usage from authenticated;
revoke insert, update, delete on public.subscriptions, public.billing_customers, public.orders,
  public.order_items, public.invoices from authenticated;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
