-- Billing documents after checkout (billing type 1, Stripe): the card a customer pays with,
-- orders made from paid, failed and refunded invoices, refunds, tax details, and the kiosk's
-- billing actions.
--
-- The stripe-webhook function hands app.record_stripe_event the current state of what an
-- event names; this migration teaches it two more kinds of object:
--   payment_method  the customer's default card now (from payment_method.attached,
--                   customer.updated, setup_intent.succeeded, a setup-mode checkout)
--   refund          { object: 'refund', invoice, payment_intent, amount_refunded, refunded }
--                   (from charge.refunded, resolved to the invoice it paid)
-- Every paid or failed invoice with an amount is an order (one per invoice: billing_id is the
-- invoice's id), kept in step by a trigger on invoices, so the order pages, the kiosk and the
-- invoice list read one history.

-- ---------------------------------------------------------------------------------------------
-- Payment method on the billing customer.

alter table public.billing_customers add column pm_synced_at timestamptz;

-- Tax details sent to the provider's customer (the vatinfo form).
alter table public.billing_customers
  add column tax_id text check (tax_id ~ '^[A-Z0-9]{4,20}$'),
  add column tax_id_type text check (tax_id_type in ('eu_vat', 'gb_vat', 'us_ein', 'ch_vat',
    'no_vat', 'au_abn', 'ca_bn')),
  add column billing_address jsonb check (billing_address is null
    or (jsonb_typeof(billing_address) = 'object'
      and billing_address ->> 'country' ~ '^[A-Z]{2}$'
      and char_length(coalesce(billing_address ->> 'line1', '')) between 1 and 200)),
  add constraint billing_customers_tax_id_pair check ((tax_id is null) = (tax_id_type is null));

create function app.apply_stripe_payment_method(p_method jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_card jsonb := p_method -> 'card';
  v_updated integer;
begin
  if p_method ->> 'customer' is null or v_card is null then
    return 'ignored';
  end if;
  update public.billing_customers c set
    pm_type = left(v_card ->> 'brand', 50),
    pm_last_four = v_card ->> 'last4',
    pm_expiration = lpad(v_card ->> 'exp_month', 2, '0') || '/' || (v_card ->> 'exp_year'),
    pm_country = upper(v_card ->> 'country'),
    pm_synced_at = p_at
  where c.billing_type = 1 and c.billing_id = p_method ->> 'customer'
    and (c.pm_synced_at is null or c.pm_synced_at <= p_at);
  get diagnostics v_updated = row_count;
  if v_updated = 0 then
    return case when exists (select 1 from public.billing_customers c
      where c.billing_type = 1 and c.billing_id = p_method ->> 'customer') then 'stale'
      else 'ignored' end;
  end if;
  return 'applied';
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Orders from invoices.

-- Stripe keeps a refunded invoice "paid"; ours says refunded, and a later sync of the paid
-- invoice must not take that back.
create function app.keep_refunded_invoice() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'refunded' and new.status = 'paid' then
    new.status := 'refunded';
  end if;
  return new;
end;
$$;

create trigger invoices_keep_refunded before update of status on public.invoices
  for each row execute function app.keep_refunded_invoice();

-- The spec's order status for an invoice's state (app-shell 4, "Order status codes"). An open
-- invoice reaches us only from invoice.payment_failed, so open means the payment failed.
create function app.invoice_order_status(p_status text) returns smallint
language sql immutable security definer
set search_path = ''
as $$
  select case p_status
    when 'paid' then 48
    when 'void' then 49
    when 'open' then 50
    when 'uncollectible' then 50
    when 'refunded' then 51
  end::smallint
$$;

create function app.sync_invoice_order() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_status smallint := app.invoice_order_status(new.status);
  v_order uuid;
  v_description text;
  v_owner uuid;
begin
  if new.billing_type <> 1 or new.amount = 0 or v_status is null then
    return null;
  end if;
  -- An invoice that already belongs to an order made elsewhere (a domain purchase) keeps it.
  if new.order_id is not null and not exists (select 1 from public.orders o
      where o.id = new.order_id and o.billing_type = 1 and o.billing_id = new.billing_id) then
    return null;
  end if;
  select a.owner_id into v_owner from public.accounts a where a.id = new.account_id;
  insert into public.orders (account_id, user_id, status, billing_type, billing_id, amount,
    currency, purchase_source)
  values (new.account_id, v_owner, v_status, 1, new.billing_id, new.amount, new.currency,
    'subscription')
  on conflict (billing_type, billing_id) do update
    set status = excluded.status, amount = excluded.amount
    where public.orders.status is distinct from excluded.status
      or public.orders.amount is distinct from excluded.amount
  returning id into v_order;
  if v_order is null then
    return null;
  end if;
  if not exists (select 1 from public.order_items i where i.order_id = v_order) then
    select coalesce(s.name || ' (' || s.interval || ')', 'Subscription') into v_description
    from (select 1) one left join public.subscriptions s on s.id = new.subscription_id;
    insert into public.order_items (order_id, kind, description, quantity, amount)
    values (v_order, 'subscription', initcap(v_description), 1, new.amount);
  end if;
  if new.order_id is distinct from v_order then
    update public.invoices set order_id = v_order where id = new.id;
  end if;
  return null;
end;
$$;

create trigger invoices_sync_order after insert or update of status, amount on public.invoices
  for each row execute function app.sync_invoice_order();

create function app.apply_stripe_refund(p_refund jsonb, p_at timestamptz) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_updated integer;
begin
  if not coalesce((p_refund ->> 'refunded')::boolean, false) then
    -- A partial refund leaves the order paid; staff see the amount in Stripe.
    return 'ignored';
  end if;
  update public.invoices i set status = 'refunded', billing_synced_at = greatest(
      i.billing_synced_at, p_at)
  where i.billing_type = 1 and i.billing_id = p_refund ->> 'invoice' and i.status <> 'refunded';
  get diagnostics v_updated = row_count;
  return case when v_updated = 1 then 'applied' else 'ignored' end;
end;
$$;

-- The event recorder of 20261122002800 with the two kinds above (unchanged otherwise).
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
      when 'invoice' then app.apply_stripe_invoice(v_object, v_at)
      when 'subscription_schedule' then app.apply_stripe_subscription_schedule(v_object, v_at)
      when 'payment_method' then app.apply_stripe_payment_method(v_object, v_at)
      when 'refund' then app.apply_stripe_refund(v_object, v_at)
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

-- ---------------------------------------------------------------------------------------------
-- The kiosk's billing actions are audited.

alter table public.kiosk_audit_log drop constraint kiosk_audit_log_action_check;
alter table public.kiosk_audit_log add constraint kiosk_audit_log_action_check check (action in (
  'user.banned', 'user.unbanned', 'user.mfa_reset',
  'impersonation.started', 'impersonation.stopped',
  'dns.zone_created', 'dns.zone_deleted', 'dns.zones_synced',
  'access_invitation.created',
  'user.preview_features_changed',
  'subscription.cancelled', 'order.refunded'
));

revoke execute on all functions in schema app from public;
