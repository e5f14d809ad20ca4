-- Billing type 2 (Paddle Billing) after checkout (issue 12): pending downgrades and
-- payment-method updates. Paddle has no subscription schedules: a downgrade waits in the
-- subscription's own custom data (`scheduled_plan_price_id`, set and cleared by the billing
-- function) until the billing function swaps the items just before the period ends; meanwhile
-- app.apply_paddle_subscription keeps it as the account's future row ('<sub>:scheduled'), the
-- way a Stripe schedule's next phase is kept ('sub_sched_…'). A payment-method update's
-- zero-value transaction records the new card (its brand, and pm_synced_at, which the
-- payment-method page waits on) and no invoice.
--
-- Both functions as 20261122005500 otherwise.

create or replace function app.apply_paddle_subscription(p_subscription jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_subscription ->> 'id';
  v_account uuid := app.billing_account_id(2::smallint, p_subscription -> 'customData',
    p_subscription ->> 'customerId');
  v_at timestamptz := (p_subscription ->> 'updatedAt')::timestamptz;
  v_price_text text := p_subscription -> 'customData' ->> 'plan_price_id';
  v_item jsonb := p_subscription -> 'items' -> 0;
  v_status text := p_subscription ->> 'status';
  v_period jsonb := p_subscription -> 'currentBillingPeriod';
  v_change jsonb := p_subscription -> 'scheduledChange';
  v_scheduled_text text := p_subscription -> 'customData' ->> 'scheduled_plan_price_id';
  v_existing record;
  v_price record;
  v_next record;
  v_has_next boolean := false;
  v_ends_at timestamptz;
  v_next_starts timestamptz;
begin
  if v_billing_id is null or v_account is null or v_at is null then
    return 'ignored';
  end if;
  select s.id, s.billing_synced_at into v_existing
  from public.subscriptions s
  where s.billing_type = 2 and s.billing_id = v_billing_id
  for update;
  if found and v_existing.billing_synced_at > v_at then
    return 'stale';
  end if;

  select pp.id, pp.plan_id, pp.interval, p.name, p."group" into v_price
  from public.plan_prices pp join public.plans p on p.id = pp.plan_id
  where v_price_text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and pp.id = v_price_text::uuid;
  if not found then
    -- Not one of our checkouts: nothing says which plan it buys.
    return 'ignored';
  end if;

  if v_status = 'canceled' then
    v_ends_at := coalesce((p_subscription ->> 'canceledAt')::timestamptz, v_at);
  elsif v_change ->> 'action' = 'cancel' then
    v_ends_at := (v_change ->> 'effectiveAt')::timestamptz;
  end if;

  insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
    billing_type, billing_id, interval, amount, currency, quantity, ends_at, trial_ends_at,
    period_starts_at, period_ends_at, billing_status, billing_synced_at)
  values (v_account, v_price.plan_id, v_price.id, 'default', v_price.name, v_price."group", 2,
    v_billing_id, v_price.interval, (v_item -> 'price' -> 'unitPrice' ->> 'amount')::bigint,
    upper(p_subscription ->> 'currencyCode'), coalesce((v_item ->> 'quantity')::integer, 1),
    v_ends_at, (v_item -> 'trialDates' ->> 'endsAt')::timestamptz,
    (v_period ->> 'startsAt')::timestamptz, (v_period ->> 'endsAt')::timestamptz, v_status, v_at)
  on conflict (billing_type, billing_id) do update set
    plan_id = excluded.plan_id, price_id = excluded.price_id, name = excluded.name,
    "group" = excluded."group", interval = excluded.interval, amount = excluded.amount,
    currency = excluded.currency, quantity = excluded.quantity, ends_at = excluded.ends_at,
    trial_ends_at = excluded.trial_ends_at,
    -- A canceled or paused subscription has no current period: the row keeps its last one.
    period_starts_at = coalesce(excluded.period_starts_at, public.subscriptions.period_starts_at),
    period_ends_at = coalesce(excluded.period_ends_at, public.subscriptions.period_ends_at),
    billing_status = excluded.billing_status, billing_synced_at = excluded.billing_synced_at;

  -- The pending downgrade (custom data `scheduled_plan_price_id`): a row keyed '<sub>:scheduled'
  -- starting at the period end, while the subscription goes on renewing. Without one (dropped,
  -- applied, or the subscription cancelled) that row ends before it started, which every
  -- reader skips.
  v_next_starts := (v_period ->> 'endsAt')::timestamptz;
  if v_status not in ('canceled', 'paused') and v_ends_at is null and v_next_starts is not null
  then
    select pp.id, pp.plan_id, pp.interval, pp.amount, p.name, p."group" into v_next
    from public.plan_prices pp join public.plans p on p.id = pp.plan_id
    where v_scheduled_text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      and pp.id = v_scheduled_text::uuid;
    v_has_next := found;
  end if;
  if v_has_next then
    insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
      billing_type, billing_id, interval, amount, currency, period_starts_at, period_ends_at,
      billing_status, billing_synced_at)
    values (v_account, v_next.plan_id, v_next.id, 'default', v_next.name, v_next."group", 2,
      v_billing_id || ':scheduled', v_next.interval, v_next.amount,
      upper(p_subscription ->> 'currencyCode'), v_next_starts,
      v_next_starts + case v_next.interval when 'monthly' then interval '1 month'
        else interval '1 year' end,
      'active', v_at)
    on conflict (billing_type, billing_id) do update set
      plan_id = excluded.plan_id, price_id = excluded.price_id, name = excluded.name,
      "group" = excluded."group", interval = excluded.interval, amount = excluded.amount,
      period_starts_at = excluded.period_starts_at, period_ends_at = excluded.period_ends_at,
      ends_at = null, billing_synced_at = excluded.billing_synced_at;
  else
    update public.subscriptions
    set ends_at = least(period_starts_at, now()), billing_synced_at = v_at
    where billing_type = 2 and billing_id = v_billing_id || ':scheduled' and ends_at is null;
  end if;
  return 'applied';
end;
$$;

create or replace function app.apply_paddle_transaction(p_transaction jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_transaction ->> 'id';
  v_customer text := p_transaction ->> 'customerId';
  v_account uuid := app.billing_account_id(2::smallint, p_transaction -> 'customData', v_customer);
  v_at timestamptz := (p_transaction ->> 'updatedAt')::timestamptz;
  v_status text := case p_transaction ->> 'status'
    when 'completed' then 'paid' when 'paid' then 'paid'
    when 'billed' then 'open' when 'past_due' then 'open'
    when 'canceled' then 'void' end;
  v_payment jsonb := (
    select payment from jsonb_array_elements(coalesce(p_transaction -> 'payments', '[]'))
      as payments(payment)
    where payment ->> 'status' = 'captured' limit 1);
  v_card jsonb := v_payment -> 'methodDetails' -> 'card';
  v_synced timestamptz;
  v_subscription uuid;
begin
  if v_billing_id is null or v_account is null or v_at is null then
    return 'ignored';
  end if;
  if v_status is null then
    return 'ignored';
  end if;
  select i.billing_synced_at into v_synced
  from public.invoices i where i.billing_type = 2 and i.billing_id = v_billing_id
  for update;
  if found and v_synced > v_at then
    return 'stale';
  end if;
  select s.id into v_subscription from public.subscriptions s
  where s.billing_type = 2 and s.billing_id = p_transaction ->> 'subscriptionId';

  -- A payment-method update is a zero-value transaction: it changes the card, it bills nothing.
  if p_transaction ->> 'origin' is distinct from 'subscription_payment_method_change' then
    insert into public.invoices (account_id, subscription_id, billing_type, billing_id, number,
      amount, currency, status, issued_at, paid_at, billing_synced_at)
    values (v_account, v_subscription, 2, v_billing_id, p_transaction ->> 'invoiceNumber',
      coalesce((p_transaction -> 'details' -> 'totals' ->> 'grandTotal')::bigint, 0),
      upper(p_transaction ->> 'currencyCode'), v_status,
      coalesce((p_transaction ->> 'billedAt')::timestamptz,
        (p_transaction ->> 'createdAt')::timestamptz),
      case when v_status = 'paid'
        then coalesce((v_payment ->> 'capturedAt')::timestamptz, v_at) end,
      v_at)
    on conflict (billing_type, billing_id) do update set
      subscription_id = coalesce(excluded.subscription_id, public.invoices.subscription_id),
      number = excluded.number, amount = excluded.amount, status = excluded.status,
      paid_at = excluded.paid_at, billing_synced_at = excluded.billing_synced_at;
  end if;

  -- The customer's row may not be here yet (its own notification can come later): made here
  -- then, and an older customer notification leaves it alone.
  if v_card is not null and v_customer is not null then
    insert into public.billing_customers as c (account_id, billing_type, billing_id, is_preferred,
      pm_type, pm_last_four, pm_expiration, pm_synced_at, billing_synced_at)
    values (v_account, 2, v_customer,
      not exists (select 1 from public.billing_customers b where b.account_id = v_account),
      -- The card's brand, as the payment-method page names it (visa, mastercard…).
      coalesce(nullif(lower(v_card ->> 'type'), ''), 'card'),
      case when v_card ->> 'last4' ~ '^[0-9]{4}$' then v_card ->> 'last4' end,
      case when (v_card ->> 'expiryMonth') ~ '^[0-9]{1,2}$'
          and (v_card ->> 'expiryYear') ~ '^[0-9]{4}$'
        then lpad(v_card ->> 'expiryMonth', 2, '0') || '/' || (v_card ->> 'expiryYear') end,
      v_at, v_at)
    on conflict (account_id, billing_type) do update set
      pm_type = excluded.pm_type, pm_last_four = excluded.pm_last_four,
      pm_expiration = excluded.pm_expiration, pm_synced_at = excluded.pm_synced_at,
      billing_synced_at = excluded.billing_synced_at
    where c.billing_id = excluded.billing_id
      and (c.billing_synced_at is null or c.billing_synced_at <= excluded.billing_synced_at);
  end if;
  return 'applied';
end;
$$;

revoke execute on all functions in schema app from public;
