-- Domain purchase (app-shell "Purchase and cart"; issue 14 items 5 and 6).
--
-- The cart (public.shopping_carts, public.cart_items, priced by trigger from tld_prices) is read
-- through public.shopping_cart(): each line's yearly price, the plan's discount and the total.
-- The `domain-purchase` edge function checks the names at the registrar, then turns the cart
-- into an order (app.create_domain_order: status 16 authorizing, one order item and one
-- purchased_domains row per name) and opens the provider's checkout with the payment flow
-- `domain-purchase`: one yearly Stripe subscription per order (subscription type
-- `shopping-cart`), whose first invoice pays the first term and whose yearly invoices pay the
-- renewals.
--
-- The provider's webhook (app.record_stripe_event, unchanged) reaches the wrappers below:
--   checkout.session.completed, paid  → order 32 processing; names 'registering'; cart emptied
--   invoice.paid (subscription_cycle) → a renewal order (paid); names 'renewing'
--   invoice.payment_failed (cycle)    → a renewal order (payment failed); names
--                                       'renewal_failed'; the owner is notified
-- The registrar is an HTTP API, so the registration itself is the function's: Supabase Cron
-- wakes it through pg_net (app.kick_domain_purchases) while names wait, it claims them
-- (app.claim_domain_work), asks the registrar and the DNS provider, and writes each outcome
-- back in one transaction (app.finish_domain_registration, app.finish_domain_renewal). A
-- registered name becomes a verified branded domain of the buyer's personal account with its
-- DNS zone: we run its name servers, so no record has to be set by the customer.
--
-- discounted_domain_count (plan option): the account's first N purchased names are sold at
-- cost (our overprice waived) for their first year. Names already bought count against N;
-- in the cart the oldest lines take the discounts first.

-- ---------------------------------------------------------------------------------------------
-- Purchased names.

create table public.purchased_domains (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  order_id uuid not null references public.orders (id) on delete cascade,
  domain public.domain_name not null,
  years integer not null check (years between 1 and 10),
  -- pending: awaiting payment; registering: paid, at the registrar; registered: ours;
  -- cancelled: the checkout was abandoned; failed: the registrar refused (nothing was created);
  -- renewing: a renewal is paid, at the registrar; renewal_failed: the renewal payment or the
  -- registrar refused, the name lapses at expires_at unless paid.
  status text not null default 'pending' check (status in ('pending', 'registering',
    'registered', 'cancelled', 'failed', 'renewing', 'renewal_failed')),
  -- What the customer is told when something went wrong.
  problem text check (char_length(problem) <= 500),
  domain_id uuid references public.domains (id) on delete set null,
  expires_at timestamptz,
  billing_type smallint check (billing_type in (1, 2)),
  billing_subscription_id text,
  -- The renewal order being processed (renewing / renewal_failed).
  renewal_order_id uuid references public.orders (id) on delete set null,
  -- The owner was told (notification and mail) about the failed renewal.
  owner_notified_at timestamptz,
  -- A worker holds the row until then (a worker that died leaves it to the next).
  locked_until timestamptz,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A name is bought once at a time: a second order for it waits until the first fails.
create unique index purchased_domains_live_name_idx on public.purchased_domains (domain)
  where status not in ('cancelled', 'failed');
create index purchased_domains_account_id_idx on public.purchased_domains (account_id);
create index purchased_domains_order_id_idx on public.purchased_domains (order_id);
create index purchased_domains_renewal_order_id_idx on public.purchased_domains (renewal_order_id);
create index purchased_domains_domain_id_idx on public.purchased_domains (domain_id);
create index purchased_domains_subscription_idx
  on public.purchased_domains (billing_type, billing_subscription_id);
create index purchased_domains_work_idx on public.purchased_domains (updated_at)
  where status in ('registering', 'renewing')
    or (status = 'renewal_failed' and owner_notified_at is null);
comment on table public.purchased_domains is
  'Names bought through the cart: registration and renewal state per name.';

create trigger purchased_domains_touch_updated_at before update on public.purchased_domains
  for each row execute function app.touch_updated_at();

alter table public.purchased_domains enable row level security;

create policy "Billing managers can read purchased domains" on public.purchased_domains
  for select to authenticated
  using ((select app.may_manage_billing(account_id)) or (select app.is_staff()));

revoke all on public.purchased_domains from anon;
revoke insert, update, delete, truncate, references, trigger on public.purchased_domains
  from authenticated;

-- ---------------------------------------------------------------------------------------------
-- Prices.

create function app.user_personal_account(p_user uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select p.personal_account_id from public.profiles p where p.id = p_user
$$;

-- How many of the plan's discounted names the account has left.
create function app.domain_discounts_left(p_account uuid) returns integer
language sql stable security definer
set search_path = ''
as $$
  select greatest(0, coalesce(app.account_limit(p_account, 'discounted_domain_count'), 0)
    - (select count(*) from public.purchased_domains d
       where d.account_id = p_account and d.status not in ('cancelled', 'failed')))::integer
$$;

-- The cart's lines for a user, priced now: the yearly price (TLD price, overprice included),
-- the discount of the lines that take one (first year at cost), the line's amount.
create function app.cart_lines(p_user uuid)
returns table (id uuid, domain text, years integer, yearly_amount bigint, discount bigint,
  amount bigint, currency text, created_at timestamptz)
language sql stable security definer
set search_path = ''
as $$
  with lines as (
    select i.id, i.domain::text as domain, i.years, i.created_at, p.price_amount,
      p.overprice_amount, p.currency::text as currency,
      row_number() over (order by i.created_at, i.domain) as position
    from public.shopping_carts c
    join public.cart_items i on i.cart_id = c.id
    left join lateral (
      select t.* from public.tld_prices t
      where t.active and (i.domain::text = t.tld or i.domain::text like '%.' || t.tld)
      order by char_length(t.tld) desc limit 1
    ) p on true
    where c.user_id = p_user
  )
  select l.id, l.domain, l.years, l.price_amount,
    case when l.position <= app.domain_discounts_left(app.user_personal_account(p_user))
      then l.overprice_amount else 0 end,
    l.price_amount * l.years
      - case when l.position <= app.domain_discounts_left(app.user_personal_account(p_user))
          then l.overprice_amount else 0 end,
    l.currency, l.created_at
  from lines l
  where l.price_amount is not null
  order by l.created_at, l.domain
$$;

-- The caller's cart (GET shopping-cart): lines, total, currency, discounts left.
create function public.shopping_cart() returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'items', coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'domain', l.domain,
      'years', l.years, 'yearly_amount', l.yearly_amount, 'discount', l.discount,
      'amount', l.amount, 'currency', l.currency) order by l.created_at, l.domain), '[]'),
    'total', coalesce(sum(l.amount), 0),
    'currency', coalesce(min(l.currency), 'USD'),
    'discounts_left', app.domain_discounts_left(app.user_personal_account(auth.uid())))
  from app.cart_lines(auth.uid()) l
  where auth.uid() is not null
$$;

-- Active TLDs with the yearly price and the first-year price of a discounted name, for the
-- search (the function asks for the caller; the portal may read it too).
create function app.domain_price_list(p_account uuid)
returns table (tld text, yearly_amount bigint, discounted_amount bigint, currency text,
  discounts_left integer)
language sql stable security definer
set search_path = ''
as $$
  select t.tld, t.price_amount, t.cost_amount, t.currency::text,
    app.domain_discounts_left(p_account)
  from public.tld_prices t
  where t.active
  order by t.price_amount, t.tld
$$;

create function public.domain_prices()
returns table (tld text, yearly_amount bigint, discounted_amount bigint, currency text,
  discounts_left integer)
language sql stable security definer
set search_path = ''
as $$
  select * from app.domain_price_list(app.user_personal_account(auth.uid()))
  where auth.uid() is not null
$$;

-- ---------------------------------------------------------------------------------------------
-- Orders.

create function app.domain_purchase_error(p_code text, p_detail text) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  raise exception using errcode = 'PT422', message = p_code, detail = p_detail, hint = 'cart';
end;
$$;

-- The user's cart becomes an order (16 authorizing) with one item and one purchased name per
-- line, priced here. An earlier order of theirs still waiting for its payment is cancelled
-- (49): its checkout was left, and its names go back to the pool.
create function app.create_domain_order(p_user uuid, p_billing_type smallint, p_source text)
returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_account uuid := app.user_personal_account(p_user);
  v_order uuid;
  v_total bigint;
  v_currency text;
  v_taken text;
begin
  if v_account is null then
    raise exception 'unknown user' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('domain-order:' || p_user::text, 0));
  update public.purchased_domains d set status = 'cancelled', problem = null
  from public.orders o
  where o.id = d.order_id and o.user_id = p_user and o.status = 16 and d.status = 'pending';
  update public.orders o set status = 49
  where o.user_id = p_user and o.status = 16 and o.purchase_source in ('domain-purchase', 'freetrial')
    and not exists (select 1 from public.purchased_domains d
      where d.order_id = o.id and d.status <> 'cancelled');

  select sum(l.amount), min(l.currency) into v_total, v_currency from app.cart_lines(p_user) l;
  if v_total is null then
    perform app.domain_purchase_error('cart_empty', 'Nothing to checkout, the cart is empty');
  end if;
  if (select count(distinct l.currency) from app.cart_lines(p_user) l) > 1 then
    perform app.domain_purchase_error('cart_currencies', 'The cart mixes currencies.');
  end if;
  select l.domain into v_taken from app.cart_lines(p_user) l
  where exists (select 1 from public.domains d where d.domain = l.domain)
    or exists (select 1 from public.purchased_domains d where d.domain = l.domain
      and d.status not in ('cancelled', 'failed'))
  limit 1;
  if v_taken is not null then
    perform app.domain_purchase_error('domain_taken', v_taken || ' is no longer available.');
  end if;

  insert into public.orders (account_id, user_id, status, billing_type, amount, currency,
    purchase_source)
  values (v_account, p_user, 16, p_billing_type, v_total, v_currency,
    coalesce(p_source, 'domain-purchase'))
  returning id into v_order;
  insert into public.order_items (order_id, kind, description, quantity, amount)
  select v_order, 'domain', l.domain, l.years, l.amount from app.cart_lines(p_user) l;
  insert into public.purchased_domains (account_id, order_id, domain, years, billing_type)
  select v_account, v_order, l.domain, l.years, p_billing_type from app.cart_lines(p_user) l;
  return v_order;
end;
$$;

-- The provider's checkout for the order, and the yearly renewal amount it subscribes to.
create function app.set_domain_order_checkout(p_order uuid, p_billing_id text) returns void
language sql security definer
set search_path = ''
as $$
  update public.orders set billing_id = p_billing_id where id = p_order and status = 16
$$;

-- Yearly renewal amount of the order's names (the subscription's price): no discount.
create function app.domain_order_renewal_amount(p_order uuid) returns bigint
language sql stable security definer
set search_path = ''
as $$
  select coalesce(sum(t.price_amount), 0)::bigint
  from public.purchased_domains d
  cross join lateral (
    select p.price_amount from public.tld_prices p
    where d.domain::text = p.tld or d.domain::text like '%.' || p.tld
    order by char_length(p.tld) desc limit 1
  ) t
  where d.order_id = p_order
$$;

-- The order's first payment arrived: its names go to the registrar, its lines leave the cart.
create function app.domain_order_paid(p_order uuid, p_subscription text) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_user uuid;
begin
  update public.orders set status = 32 where id = p_order and status in (0, 16, 17)
  returning user_id into v_user;
  if not found then
    return 'stale';
  end if;
  update public.purchased_domains set status = 'registering', billing_subscription_id =
    p_subscription, locked_until = null
  where order_id = p_order and status = 'pending';
  delete from public.cart_items i using public.shopping_carts c, public.purchased_domains d
  where c.id = i.cart_id and c.user_id = v_user and d.order_id = p_order
    and i.domain = d.domain;
  return 'applied';
end;
$$;

-- The order's state once its names are done: paid when one is registered, else cancelled
-- (the registrar refused them all; the subscription is cancelled by the worker).
create function app.settle_domain_order(p_order uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.purchased_domains d
      where d.order_id = p_order and d.status in ('pending', 'registering')) then
    return;
  end if;
  update public.orders o set status = case
      when exists (select 1 from public.purchased_domains d
        where d.order_id = o.id and d.status not in ('failed', 'cancelled')) then 48
      else 49 end
  where o.id = p_order and o.status = 32;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The provider's events. The Stripe appliers are wrapped (renamed, and called first), so the
-- event recorder stays as it is.

alter function app.apply_stripe_checkout(jsonb, timestamptz)
  rename to apply_stripe_checkout_base;
alter function app.apply_stripe_invoice(jsonb, timestamptz) rename to apply_stripe_invoice_base;
alter function app.apply_stripe_subscription(jsonb, timestamptz)
  rename to apply_stripe_subscription_base;

create function app.domain_order_of(p_metadata jsonb) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select o.id from public.orders o
  where p_metadata ->> 'kind' = 'domain-purchase'
    and p_metadata ->> 'order_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and o.id = (p_metadata ->> 'order_id')::uuid
$$;

create function app.apply_stripe_checkout(p_session jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_result text := app.apply_stripe_checkout_base(p_session, p_at);
  v_order uuid := app.domain_order_of(p_session -> 'metadata');
begin
  if v_order is null then
    return v_result;
  end if;
  if p_session ->> 'status' = 'complete'
    and p_session ->> 'payment_status' in ('paid', 'no_payment_required') then
    return app.domain_order_paid(v_order, p_session ->> 'subscription');
  elsif p_session ->> 'status' = 'expired' then
    update public.purchased_domains set status = 'cancelled'
    where order_id = v_order and status = 'pending';
    update public.orders set status = 49 where id = v_order and status = 16;
  end if;
  return v_result;
end;
$$;

-- A domain order's subscription is the `shopping-cart` one: kept (hidden) beside the plan's.
create function app.apply_stripe_subscription(p_subscription jsonb, p_at timestamptz)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_order uuid := app.domain_order_of(p_subscription -> 'metadata');
  v_item jsonb := p_subscription -> 'items' -> 'data' -> 0;
  v_status text := p_subscription ->> 'status';
  v_account uuid;
begin
  if v_order is null then
    return app.apply_stripe_subscription_base(p_subscription, p_at);
  end if;
  select account_id into v_account from public.orders where id = v_order;
  if v_status = 'incomplete_expired' then
    v_status := 'canceled';
  end if;
  insert into public.subscriptions (account_id, type, name, hidden, billing_type, billing_id,
    interval, amount, currency, quantity, ends_at, period_starts_at, period_ends_at,
    billing_status, billing_synced_at)
  values (v_account, 'shopping-cart', 'domains', true, 1, p_subscription ->> 'id', 'yearly',
    (v_item -> 'price' ->> 'unit_amount')::bigint, upper(p_subscription ->> 'currency'), 1,
    case when v_status = 'canceled' then to_timestamp(coalesce(p_subscription ->> 'ended_at',
      p_subscription ->> 'canceled_at')::bigint) end,
    to_timestamp((v_item ->> 'current_period_start')::bigint),
    to_timestamp((v_item ->> 'current_period_end')::bigint), v_status, p_at)
  on conflict (billing_type, billing_id) do update set
    amount = excluded.amount, ends_at = excluded.ends_at,
    period_starts_at = excluded.period_starts_at, period_ends_at = excluded.period_ends_at,
    billing_status = excluded.billing_status, billing_synced_at = excluded.billing_synced_at
  where public.subscriptions.billing_synced_at is null
    or public.subscriptions.billing_synced_at <= excluded.billing_synced_at;
  return 'applied';
end;
$$;

-- Invoices of a domain order: the first belongs to the order itself; each renewal invoice gets
-- its own order (items: the names it renews), whose status follows the invoice as others do.
create function app.apply_stripe_invoice(p_invoice jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_details jsonb := p_invoice -> 'parent' -> 'subscription_details';
  v_order uuid := app.domain_order_of(v_details -> 'metadata');
  v_subscription text := v_details ->> 'subscription';
  v_renewal uuid;
  v_result text;
  v_status text := p_invoice ->> 'status';
begin
  if v_order is null then
    return app.apply_stripe_invoice_base(p_invoice, p_at);
  end if;
  if coalesce(p_invoice ->> 'billing_reason', '') <> 'subscription_cycle' then
    perform set_config('app.invoice_order', v_order::text, true);
    v_result := app.apply_stripe_invoice_base(p_invoice, p_at);
    perform set_config('app.invoice_order', '', true);
    return v_result;
  end if;

  select o.id into v_renewal from public.orders o
  where o.billing_type = 1 and o.billing_id = p_invoice ->> 'id';
  if v_renewal is null then
    insert into public.orders (account_id, user_id, status, billing_type, billing_id, amount,
      currency, purchase_source)
    select o.account_id, o.user_id, 32, 1, p_invoice ->> 'id',
      (p_invoice ->> 'amount_due')::bigint, upper(p_invoice ->> 'currency'), 'domain-renewal'
    from public.orders o where o.id = v_order
    returning id into v_renewal;
    insert into public.order_items (order_id, kind, description, quantity, amount)
    select v_renewal, 'domain', 'Renewal: ' || d.domain, 1, 0
    from public.purchased_domains d
    where d.order_id = v_order and d.status in ('registered', 'renewing', 'renewal_failed');
  end if;
  perform set_config('app.invoice_order', v_renewal::text, true);
  v_result := app.apply_stripe_invoice_base(p_invoice, p_at);
  perform set_config('app.invoice_order', '', true);
  if v_result <> 'applied' then
    return v_result;
  end if;

  if v_status = 'paid' then
    update public.orders set status = 32 where id = v_renewal and status <> 48;
    update public.purchased_domains set status = 'renewing', renewal_order_id = v_renewal,
      problem = null, owner_notified_at = null, locked_until = null
    where order_id = v_order and status in ('registered', 'renewal_failed')
      and renewal_order_id is distinct from v_renewal;
  elsif v_status in ('open', 'uncollectible') then
    update public.purchased_domains set status = 'renewal_failed', renewal_order_id = v_renewal,
      problem = 'The renewal payment failed. Update your payment method before the domain '
        || 'expires.'
    where order_id = v_order and status = 'registered';
  end if;
  return v_result;
end;
$$;

-- The invoice row carries the order the wrapper above chose (the order sync leaves it then).
create function app.invoice_domain_order() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.order_id := coalesce(new.order_id,
    nullif(current_setting('app.invoice_order', true), '')::uuid);
  return new;
end;
$$;

create trigger invoices_domain_order before insert on public.invoices
  for each row execute function app.invoice_domain_order();

-- The order sync (20261122004800) keeps an invoice's own order only when the order's billing id
-- is the invoice's; a renewal order is, and follows the invoice: paid → 48, failed → 50.

-- ---------------------------------------------------------------------------------------------
-- The worker's side.

create function app.claim_domain_work(p_limit integer)
returns table (id uuid, account_id uuid, order_id uuid, domain text, years integer,
  status text, billing_subscription_id text, renewal_order_id uuid, owner_id uuid,
  owner_email text)
language sql security definer
set search_path = ''
as $$
  with picked as (
    select d.id from public.purchased_domains d
    where (d.status in ('registering', 'renewing')
        or (d.status = 'renewal_failed' and d.owner_notified_at is null))
      and (d.locked_until is null or d.locked_until < now())
    order by d.updated_at
    limit p_limit
    for update skip locked
  ), locked as (
    update public.purchased_domains d
    set locked_until = now() + interval '2 minutes', attempts = d.attempts + 1
    from picked where d.id = picked.id
    returning d.*
  )
  select l.id, l.account_id, l.order_id, l.domain::text, l.years, l.status,
    l.billing_subscription_id, l.renewal_order_id, a.owner_id, u.email::text
  from locked l
  join public.accounts a on a.id = l.account_id
  left join auth.users u on u.id = a.owner_id
$$;

-- A registration's outcome. Registered: the name becomes a branded domain of the account with
-- its DNS zone and the token its records carry, verified when the worker's DNS check passed
-- (else pending: the verifier keeps trying); refused: failed with the registrar's reason.
create function app.finish_domain_registration(p_id uuid, p_ok boolean, p_expires timestamptz,
  p_problem text, p_zone_id text, p_nameservers text[], p_token text, p_verified boolean)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
  v_domain uuid;
begin
  select * into v_row from public.purchased_domains where id = p_id for update;
  if not found or v_row.status <> 'registering' then
    return 'stale';
  end if;
  if p_ok then
    insert into public.domains (domain, kind, account_id, verification_token,
      verification_status, verified_at)
    values (v_row.domain, 'branded', v_row.account_id, p_token,
      case when p_verified then 'verified' else 'pending' end,
      case when p_verified then now() end)
    returning id into v_domain;
    insert into public.dns_zones (zone_id, name, status, nameservers, account_id)
    values (p_zone_id, v_row.domain, 'active', coalesce(p_nameservers, '{}'), v_row.account_id)
    on conflict (name) do update set zone_id = excluded.zone_id, status = 'active',
      nameservers = excluded.nameservers, account_id = excluded.account_id;
    update public.purchased_domains set status = 'registered', domain_id = v_domain,
      expires_at = p_expires, problem = null, locked_until = null
    where id = p_id;
  else
    update public.purchased_domains set status = 'failed', locked_until = null,
      problem = left(coalesce(p_problem, 'The registrar refused the registration.'), 500)
    where id = p_id;
  end if;
  perform app.settle_domain_order(v_row.order_id);
  return case when p_ok then 'registered' else 'failed' end;
end;
$$;

-- A renewal's outcome at the registrar; a refusal notifies the owner like a failed payment.
create function app.finish_domain_renewal(p_id uuid, p_ok boolean, p_expires timestamptz,
  p_problem text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
begin
  select * into v_row from public.purchased_domains where id = p_id for update;
  if not found or v_row.status <> 'renewing' then
    return 'stale';
  end if;
  if p_ok then
    update public.purchased_domains set status = 'registered', expires_at = p_expires,
      problem = null, locked_until = null
    where id = p_id;
    update public.orders o set status = 48 where o.id = v_row.renewal_order_id
      and o.status = 32
      and not exists (select 1 from public.purchased_domains d
        where d.renewal_order_id = o.id and d.status = 'renewing' and d.id <> p_id);
    return 'renewed';
  end if;
  update public.purchased_domains set status = 'renewal_failed', locked_until = null,
    owner_notified_at = null,
    problem = left(coalesce(p_problem, 'The registrar refused the renewal.'), 500)
  where id = p_id;
  return 'renewal_failed';
end;
$$;

-- The owner has been told about a failed renewal: the notification is written here, the mail
-- was sent by the worker just before.
create function app.domain_renewal_notified(p_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
  v_owner uuid;
begin
  update public.purchased_domains set owner_notified_at = now(), locked_until = null
  where id = p_id and status = 'renewal_failed' and owner_notified_at is null
  returning * into v_row;
  if not found then
    return;
  end if;
  select a.owner_id into v_owner from public.accounts a where a.id = v_row.account_id;
  insert into public.notifications (user_id, account_id, type, title, body, data)
  values (v_owner, v_row.account_id, 'domain.renewal_failed',
    'The renewal of ' || v_row.domain || ' failed',
    v_row.problem || coalesce(' It expires on ' || to_char(v_row.expires_at at time zone 'UTC',
      'YYYY-MM-DD') || '.', ''),
    jsonb_build_object('domain', v_row.domain, 'order_id', v_row.renewal_order_id));
end;
$$;

-- A worker gave up on a row for now (the registrar could not be reached): it is retried later.
create function app.release_domain_work(p_id uuid, p_problem text) returns void
language sql security definer
set search_path = ''
as $$
  update public.purchased_domains
  set locked_until = now() + interval '30 seconds', problem = left(p_problem, 500)
  where id = p_id
$$;

-- Wakes the worker (the domain-purchase function's /process) while names wait. It lives beside
-- the domain verifier: same key, address derived from the verifier's.
create function app.kick_domain_purchases() returns bigint
language plpgsql security definer
set search_path = ''
as $$
declare
  v_settings app.domain_verification_settings;
begin
  select * into v_settings from app.domain_verification_settings;
  if v_settings.verify_url is null or not exists (
    select 1 from public.purchased_domains d
    where (d.status in ('registering', 'renewing')
        or (d.status = 'renewal_failed' and d.owner_notified_at is null))
      and (d.locked_until is null or d.locked_until < now())
  ) then
    return null;
  end if;
  return net.http_post(
    url => regexp_replace(v_settings.verify_url, 'domain-verify$', 'domain-purchase/process'),
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.verify_key),
    timeout_milliseconds => 60000);
end;
$$;

select cron.schedule('domain-purchase', '5 seconds', $$select app.kick_domain_purchases()$$);

revoke execute on all functions in schema app from public;
revoke execute on function public.shopping_cart(), public.domain_prices() from public, anon;
grant execute on function public.shopping_cart(), public.domain_prices() to authenticated;
grant execute on function app.create_domain_order(uuid, smallint, text),
  app.set_domain_order_checkout(uuid, text), app.domain_order_renewal_amount(uuid),
  app.domain_price_list(uuid), app.user_personal_account(uuid),
  app.claim_domain_work(integer),
  app.finish_domain_registration(uuid, boolean, timestamptz, text, text, text[], text, boolean),
  app.finish_domain_renewal(uuid, boolean, timestamptz, text),
  app.domain_renewal_notified(uuid), app.release_domain_work(uuid, text)
  to service_role;
