-- Billing type 2 (Paddle Billing): notifications applied to subscriptions, billing customers and
-- invoices. The paddle-webhook function verifies a notification's signature on the raw body,
-- parses it with the official SDK, and hands the raw notification and the SDK's entity to
-- app.record_paddle_event, which in one transaction stores the event once in webhook_events
-- (provider 'billing-2', event id unique) and applies it. A failure rolls both back, so Paddle's
-- retry applies it once.
--
-- Order: each row remembers the Paddle entity's own `updated_at` it was last synced from
-- (billing_synced_at); an entity older than that leaves the row alone, so a replayed, late or
-- out-of-order notification never rolls a row back. The entity arrives as the SDK shapes it
-- (camelCase: updatedAt, customData, currentBillingPeriod…), the same from a notification and
-- from an API answer, so the billing function applies what Paddle answers with the same code.

-- ---------------------------------------------------------------------------------------------
-- The event store, for every provider: stored once by (provider, event id), marked processed
-- when applied, a failure's reason kept for staff while the row stays unprocessed.

/** The stored event's id to apply it under, or null when it was processed before. */
create function app.begin_billing_event(p_provider text, p_event_id text, p_type text,
  p_payload jsonb) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_processed timestamptz;
begin
  -- A concurrent delivery of the same event waits here for the first to commit, then sees it
  -- processed.
  insert into public.webhook_events (provider, event_id, type, payload)
  values (p_provider, p_event_id, p_type, p_payload)
  on conflict (provider, event_id) do update set error = null
  returning id, processed_at into v_id, v_processed;
  return case when v_processed is null then v_id end;
end;
$$;

create function app.finish_billing_event(p_id uuid) returns void
language sql security definer
set search_path = ''
as $$
  update public.webhook_events set processed_at = now() where id = p_id
$$;

create function app.record_billing_event_error(p_provider text, p_event_id text, p_type text,
  p_payload jsonb, p_error text) returns void
language sql security definer
set search_path = ''
as $$
  insert into public.webhook_events (provider, event_id, type, payload, error)
  values (p_provider, p_event_id, p_type, p_payload, left(p_error, 2000))
  on conflict (provider, event_id) do update set error = excluded.error
    where public.webhook_events.processed_at is null
$$;

-- ---------------------------------------------------------------------------------------------
-- Paddle's entities.

/** The account a provider's object belongs to: our custom data on it, else its customer's. */
create function app.billing_account_id(p_billing_type smallint, p_custom_data jsonb,
  p_customer text) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (
      select a.id from public.accounts a
      where p_custom_data ->> 'account_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        and a.id = (p_custom_data ->> 'account_id')::uuid
    ),
    (
      select c.account_id from public.billing_customers c
      where c.billing_type = p_billing_type and c.billing_id = p_customer
    )
  )
$$;

/** A Paddle customer that carries our account id: the account's type-2 billing customer. */
create function app.apply_paddle_customer(p_customer jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_customer ->> 'id';
  v_account uuid := app.billing_account_id(2::smallint, p_customer -> 'customData', null);
  v_at timestamptz := (p_customer ->> 'updatedAt')::timestamptz;
begin
  if v_account is null or v_billing_id is null then
    return 'ignored';
  end if;
  insert into public.billing_customers (account_id, billing_type, billing_id, is_preferred,
    billing_synced_at)
  values (v_account, 2, v_billing_id,
    not exists (select 1 from public.billing_customers c where c.account_id = v_account), v_at)
  on conflict (account_id, billing_type) do update
    set billing_id = excluded.billing_id, billing_synced_at = excluded.billing_synced_at
    where public.billing_customers.billing_synced_at is null
      or public.billing_customers.billing_synced_at <= excluded.billing_synced_at;
  return 'applied';
end;
$$;

create function app.apply_paddle_subscription(p_subscription jsonb) returns text
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
  v_existing record;
  v_price record;
  v_ends_at timestamptz;
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
  return 'applied';
end;
$$;

/**
 * A billed transaction is an invoice (Paddle numbers it); a completed one paid by card also
 * tells the customer's payment method. Drafts and ready transactions are checkouts, not invoices.
 */
create function app.apply_paddle_transaction(p_transaction jsonb) returns text
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

  -- The customer's row may not be here yet (its own notification can come later): made here
  -- then, and an older customer notification leaves it alone.
  if v_card is not null and v_customer is not null then
    insert into public.billing_customers as c (account_id, billing_type, billing_id, is_preferred,
      pm_type, pm_last_four, pm_expiration, billing_synced_at)
    values (v_account, 2, v_customer,
      not exists (select 1 from public.billing_customers b where b.account_id = v_account),
      'card',
      case when v_card ->> 'last4' ~ '^[0-9]{4}$' then v_card ->> 'last4' end,
      case when (v_card ->> 'expiryMonth') ~ '^[0-9]{1,2}$'
          and (v_card ->> 'expiryYear') ~ '^[0-9]{4}$'
        then lpad(v_card ->> 'expiryMonth', 2, '0') || '/' || (v_card ->> 'expiryYear') end,
      v_at)
    on conflict (account_id, billing_type) do update set
      pm_type = excluded.pm_type, pm_last_four = excluded.pm_last_four,
      pm_expiration = excluded.pm_expiration, billing_synced_at = excluded.billing_synced_at
    where c.billing_id = excluded.billing_id
      and (c.billing_synced_at is null or c.billing_synced_at <= excluded.billing_synced_at);
  end if;
  return 'applied';
end;
$$;

/**
 * Stores a verified Paddle notification (`p_event`, as received) once and applies its entity
 * (`p_entity`, as the SDK parsed it) in one transaction. Answers what happened: applied,
 * duplicate (stored before), stale (older than what a row holds), ignored (a type we do not
 * handle, or an entity that is not ours).
 */
create function app.record_paddle_event(p_event jsonb, p_entity jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_type text := p_event ->> 'event_type';
  v_result text;
begin
  if p_event ->> 'event_id' is null or v_type is null or p_event ->> 'occurred_at' is null then
    raise exception 'not a Paddle notification' using errcode = '22023';
  end if;
  v_id := app.begin_billing_event('billing-2', p_event ->> 'event_id', v_type, p_event);
  if v_id is null then
    return 'duplicate';
  end if;
  v_result := case split_part(v_type, '.', 1)
    when 'subscription' then app.apply_paddle_subscription(p_entity)
    when 'transaction' then app.apply_paddle_transaction(p_entity)
    when 'customer' then app.apply_paddle_customer(p_entity)
    else 'ignored'
  end;
  perform app.finish_billing_event(v_id);
  return v_result;
end;
$$;

revoke execute on all functions in schema app from public;
