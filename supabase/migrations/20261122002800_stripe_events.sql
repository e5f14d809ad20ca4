-- Billing type 1 (Stripe): provider events applied to subscriptions, billing customers and
-- invoices. The stripe-webhook function verifies an event's signature, fetches the current
-- state of the object it names from Stripe, and hands both to app.record_stripe_event, which in
-- one transaction stores the event once in webhook_events (provider 'billing-1', event id
-- unique) and applies it. A failure rolls both back, so the provider's retry applies it once.
--
-- Order: each row remembers the creation time of the provider event it was last synced from
-- (billing_synced_at); an older event leaves it alone. Since the applied state is what the
-- provider holds now (not the event's snapshot), even events of the same second cannot roll a
-- row back.

alter table public.subscriptions add column billing_synced_at timestamptz;
alter table public.invoices add column billing_synced_at timestamptz;
alter table public.billing_customers add column billing_synced_at timestamptz;

-- The account a Stripe object belongs to: our metadata on it, else its customer's account.
create function app.stripe_account_id(p_metadata jsonb, p_customer text) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (
      select a.id from public.accounts a
      where p_metadata ->> 'account_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        and a.id = (p_metadata ->> 'account_id')::uuid
    ),
    (
      select c.account_id from public.billing_customers c
      where c.billing_type = 1 and c.billing_id = p_customer
    )
  )
$$;

create function app.apply_stripe_checkout(p_session jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_customer text := p_session ->> 'customer';
  v_account uuid := app.stripe_account_id(p_session -> 'metadata', v_customer);
begin
  if v_account is null or v_customer is null then
    return 'ignored';
  end if;
  insert into public.billing_customers (account_id, billing_type, billing_id, is_preferred,
    billing_synced_at)
  values (v_account, 1, v_customer,
    not exists (select 1 from public.billing_customers c where c.account_id = v_account), p_at)
  on conflict (account_id, billing_type) do update
    set billing_id = excluded.billing_id, billing_synced_at = excluded.billing_synced_at
    where public.billing_customers.billing_synced_at is null
      or public.billing_customers.billing_synced_at <= excluded.billing_synced_at;
  return 'applied';
end;
$$;

create function app.apply_stripe_subscription(p_subscription jsonb, p_at timestamptz)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_subscription ->> 'id';
  v_account uuid := app.stripe_account_id(p_subscription -> 'metadata',
    p_subscription ->> 'customer');
  v_price_text text := p_subscription -> 'metadata' ->> 'plan_price_id';
  v_item jsonb := p_subscription -> 'items' -> 'data' -> 0;
  v_status text := p_subscription ->> 'status';
  v_existing record;
  v_price record;
  v_ends_at timestamptz;
  v_period_end timestamptz := to_timestamp((v_item ->> 'current_period_end')::bigint);
begin
  if v_billing_id is null or v_account is null then
    return 'ignored';
  end if;
  select s.id, s.billing_synced_at into v_existing
  from public.subscriptions s
  where s.billing_type = 1 and s.billing_id = v_billing_id
  for update;
  if found and v_existing.billing_synced_at > p_at then
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

  if v_status = 'incomplete_expired' then
    v_status := 'canceled';
  end if;
  if v_status = 'canceled' then
    v_ends_at := to_timestamp(coalesce(p_subscription ->> 'ended_at',
      p_subscription ->> 'canceled_at')::bigint);
  elsif (p_subscription ->> 'cancel_at') is not null then
    v_ends_at := to_timestamp((p_subscription ->> 'cancel_at')::bigint);
  elsif (p_subscription ->> 'cancel_at_period_end')::boolean then
    v_ends_at := v_period_end;
  end if;

  insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
    billing_type, billing_id, interval, amount, currency, quantity, ends_at, trial_ends_at,
    period_starts_at, period_ends_at, billing_status, billing_synced_at)
  values (v_account, v_price.plan_id, v_price.id, 'default', v_price.name, v_price."group", 1,
    v_billing_id, v_price.interval, (v_item -> 'price' ->> 'unit_amount')::bigint,
    upper(p_subscription ->> 'currency'), coalesce((v_item ->> 'quantity')::integer, 1),
    v_ends_at, to_timestamp((p_subscription ->> 'trial_end')::bigint),
    to_timestamp((v_item ->> 'current_period_start')::bigint), v_period_end, v_status, p_at)
  on conflict (billing_type, billing_id) do update set
    plan_id = excluded.plan_id, price_id = excluded.price_id, name = excluded.name,
    "group" = excluded."group", interval = excluded.interval, amount = excluded.amount,
    currency = excluded.currency, quantity = excluded.quantity, ends_at = excluded.ends_at,
    trial_ends_at = excluded.trial_ends_at, period_starts_at = excluded.period_starts_at,
    period_ends_at = excluded.period_ends_at, billing_status = excluded.billing_status,
    billing_synced_at = excluded.billing_synced_at;
  return 'applied';
end;
$$;

create function app.apply_stripe_invoice(p_invoice jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_billing_id text := p_invoice ->> 'id';
  v_details jsonb := p_invoice -> 'parent' -> 'subscription_details';
  v_account uuid := app.stripe_account_id(v_details -> 'metadata', p_invoice ->> 'customer');
  v_subscription uuid;
  v_synced timestamptz;
  v_url text := p_invoice ->> 'hosted_invoice_url';
begin
  if v_billing_id is null or v_account is null then
    return 'ignored';
  end if;
  select i.billing_synced_at into v_synced
  from public.invoices i where i.billing_type = 1 and i.billing_id = v_billing_id
  for update;
  if found and v_synced > p_at then
    return 'stale';
  end if;
  select s.id into v_subscription from public.subscriptions s
  where s.billing_type = 1 and s.billing_id = v_details ->> 'subscription';

  insert into public.invoices (account_id, subscription_id, billing_type, billing_id, number,
    amount, currency, status, url, issued_at, paid_at, billing_synced_at)
  values (v_account, v_subscription, 1, v_billing_id, p_invoice ->> 'number',
    (p_invoice ->> 'amount_due')::bigint, upper(p_invoice ->> 'currency'),
    p_invoice ->> 'status',
    -- The table keeps https addresses only (the local sandbox serves plain http).
    case when v_url like 'https://%' then v_url end,
    to_timestamp((p_invoice ->> 'created')::bigint),
    to_timestamp((p_invoice -> 'status_transitions' ->> 'paid_at')::bigint), p_at)
  on conflict (billing_type, billing_id) do update set
    subscription_id = coalesce(excluded.subscription_id, public.invoices.subscription_id),
    number = excluded.number, amount = excluded.amount, status = excluded.status,
    url = excluded.url, paid_at = excluded.paid_at, billing_synced_at = excluded.billing_synced_at;
  return 'applied';
end;
$$;

/**
 * Stores a verified Stripe event once and applies it with `p_objects`, the current state of
 * the objects it names (fetched by the function), in one transaction. Answers what happened:
 * applied, duplicate (stored before), stale (older than what a row holds), ignored (a type we
 * do not handle, or an object that is not ours).
 */
create function app.record_stripe_event(p_event jsonb, p_objects jsonb) returns text
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
  -- A concurrent delivery of the same event waits here for the first to commit, then sees it
  -- processed.
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
      when 'invoice' then app.apply_stripe_invoice(v_object, v_at)
      else 'ignored'
    end;
    -- The first object is the event's own; its outcome is the event's.
    if v_result = 'ignored' then
      v_result := v_step;
    end if;
  end loop;

  update public.webhook_events set processed_at = now() where id = v_id;
  return v_result;
end;
$$;

/** A delivery that failed keeps its reason for staff (the event row stays unprocessed). */
create function app.record_stripe_event_error(p_event jsonb, p_error text) returns void
language sql security definer
set search_path = ''
as $$
  insert into public.webhook_events (provider, event_id, type, payload, error)
  values ('billing-1', p_event ->> 'id', p_event ->> 'type', p_event, left(p_error, 2000))
  on conflict (provider, event_id) do update set error = excluded.error
    where public.webhook_events.processed_at is null
$$;

revoke execute on all functions in schema app from public;
