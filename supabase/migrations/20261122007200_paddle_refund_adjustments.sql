-- Refunds of Paddle orders (billing type 2; issue 12 item 6): staff refund a paid order from the
-- kiosk through a Paddle refund adjustment, which Paddle creates `pending_approval` and approves
-- (or rejects) later, announcing it with `adjustment.updated`.
--
-- * An order remembers the full refund asked for it (refund_id, refund_status, and the Paddle
--   adjustment's own updated_at it was synced from): the kiosk shows "refund pending" until the
--   approval lands, then the order is refunded (51); a rejected refund leaves it paid.
-- * app.record_paddle_event applies adjustment notifications (app.apply_paddle_adjustment): a
--   full refund's state, in the adjustment's own updated_at order, so a replayed, late or
--   out-of-order notification never rolls it back. Partial refunds (the domain worker's, one per
--   refused name) leave the order as it is, as a partial Stripe refund does.
-- * A refunded invoice refunds its order (51) whatever made the order (the Stripe order sync of
--   20261122004800 only followed invoices whose id is the order's billing id, which left a
--   refunded domain order paid).
-- * Paddle's paid plan transactions are orders too, as Stripe's paid invoices are, so a Paddle
--   customer's payments can be seen and refunded. A `billed` transaction is not yet a failed
--   payment at Paddle (it is on its way to paid), so an open Paddle invoice makes no order.

alter table public.orders
  add column refund_id text check (char_length(refund_id) <= 255),
  add column refund_status text check (refund_status in ('pending_approval', 'approved',
    'rejected', 'reversed')),
  add column refund_synced_at timestamptz,
  add constraint orders_refund_pair check ((refund_id is null) = (refund_status is null));

comment on column public.orders.refund_status is
  'The full refund asked for this order at its provider: pending_approval until Paddle approves '
  'it (then the order is 51), or rejected (the order stays paid).';

-- ---------------------------------------------------------------------------------------------
-- A refunded invoice refunds its order.

create function app.refund_invoice_order() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.orders set status = 51
  where id = new.order_id and status in (32, 33, 48);
  return null;
end;
$$;

create trigger invoices_refund_order after update of status on public.invoices
  for each row when (new.status = 'refunded' and old.status <> 'refunded'
    and new.order_id is not null)
  execute function app.refund_invoice_order();

-- ---------------------------------------------------------------------------------------------
-- Orders of Paddle's paid plan transactions (the sync of 20261122004800, for both providers).

create or replace function app.sync_invoice_order() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_status smallint := app.invoice_order_status(new.status);
  v_order uuid;
  v_description text;
  v_owner uuid;
begin
  if new.billing_type not in (1, 2) or new.amount = 0 or v_status is null then
    return null;
  end if;
  if new.billing_type = 2 and v_status = 50 then
    return null;
  end if;
  -- An invoice that already belongs to an order made elsewhere (a domain purchase) keeps it.
  if new.order_id is not null and not exists (select 1 from public.orders o
      where o.id = new.order_id and o.billing_type = new.billing_type
        and o.billing_id = new.billing_id
        and (new.billing_type = 1 or o.purchase_source = 'subscription')) then
    return null;
  end if;
  select a.owner_id into v_owner from public.accounts a where a.id = new.account_id;
  insert into public.orders (account_id, user_id, status, billing_type, billing_id, amount,
    currency, purchase_source)
  values (new.account_id, v_owner, v_status, new.billing_type, new.billing_id, new.amount,
    new.currency, 'subscription')
  on conflict (billing_type, billing_id) do update
    set status = excluded.status, amount = excluded.amount
    where (public.orders.status is distinct from excluded.status
        or public.orders.amount is distinct from excluded.amount)
      -- A Paddle domain order's transaction is its own: its status is the domain flow's.
      and (public.orders.billing_type = 1 or public.orders.purchase_source = 'subscription')
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

-- The Paddle payments made before this migration get their orders.
update public.invoices set status = status
where billing_type = 2 and order_id is null and amount > 0 and status in ('paid', 'refunded');

-- ---------------------------------------------------------------------------------------------
-- Paddle adjustments.

/**
 * A Paddle adjustment (as the SDK shapes it: transactionId, updatedAt…). A full refund of an
 * order's transaction sets the order's refund state, in the adjustment's own order; approved, it
 * refunds the invoice and so the order (51). Answers applied, stale or ignored.
 */
create function app.apply_paddle_adjustment(p_adjustment jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_id text := p_adjustment ->> 'id';
  v_transaction text := p_adjustment ->> 'transactionId';
  v_status text := p_adjustment ->> 'status';
  v_at timestamptz := (p_adjustment ->> 'updatedAt')::timestamptz;
  v_order record;
begin
  if v_id is null or v_transaction is null or v_at is null
    or p_adjustment ->> 'action' is distinct from 'refund'
    or p_adjustment ->> 'type' is distinct from 'full'
    or v_status not in ('pending_approval', 'approved', 'rejected', 'reversed') then
    return 'ignored';
  end if;
  select o.id, o.refund_id, o.refund_synced_at into v_order
  from public.orders o
  where o.billing_type = 2 and o.id = coalesce(
    (select i.order_id from public.invoices i
     where i.billing_type = 2 and i.billing_id = v_transaction),
    (select o2.id from public.orders o2
     where o2.billing_type = 2 and o2.billing_id = v_transaction))
  for update;
  if not found then
    return 'ignored';
  end if;
  -- Older than what the order holds (this adjustment's, or a later one's): no effect.
  if v_order.refund_synced_at is not null and v_order.refund_synced_at >= v_at then
    return 'stale';
  end if;
  update public.orders set refund_id = v_id, refund_status = v_status, refund_synced_at = v_at
  where id = v_order.id;
  if v_status = 'approved' then
    update public.invoices set status = 'refunded'
    where billing_type = 2 and billing_id = v_transaction and status <> 'refunded';
    -- An order whose transaction has no invoice row yet is refunded all the same.
    update public.orders set status = 51 where id = v_order.id and status in (32, 33, 48);
  end if;
  return 'applied';
end;
$$;

-- The notification recorder of 20261122005500 with adjustments (unchanged otherwise).
create or replace function app.record_paddle_event(p_event jsonb, p_entity jsonb) returns text
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
    when 'adjustment' then app.apply_paddle_adjustment(p_entity)
    else 'ignored'
  end;
  perform app.finish_billing_event(v_id);
  return v_result;
end;
$$;

revoke execute on all functions in schema app from public;
