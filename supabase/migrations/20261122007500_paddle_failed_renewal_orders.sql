-- A Paddle renewal whose payment fails is a failed order (50), as a Stripe one is (issue 12).
--
-- Paddle reports a renewal `billed` first (on its way to paid, not a failure) and `past_due`
-- once the charge is declined; both are an open invoice here, so 20261122007200 made no order
-- for an open Paddle invoice and a declined renewal never reached staff's order list. The
-- invoice now remembers when its provider reported the payment failed (payment_failed_at, set by
-- the Paddle transaction applier on `past_due`), and an open Paddle invoice with that mark is a
-- failed order, which turns paid (48) when the customer pays it. A Stripe invoice reaches us
-- open only from invoice.payment_failed, so Stripe's open invoices stay failed orders unmarked.

alter table public.invoices add column payment_failed_at timestamptz;

comment on column public.invoices.payment_failed_at is
  'When the provider reported this invoice''s payment failed (Paddle: the transaction went '
  'past_due); an open invoice with it is a failed order (50).';

-- The applier that the event recorder calls by name becomes a thin step after the existing one
-- (the domain order wrapper of 20261122006600 around the base), so neither is re-created.
alter function app.apply_paddle_transaction(jsonb) rename to apply_paddle_domain_transaction;

create function app.apply_paddle_transaction(p_transaction jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_result text := app.apply_paddle_domain_transaction(p_transaction);
begin
  if v_result = 'applied' and p_transaction ->> 'status' = 'past_due' then
    update public.invoices set payment_failed_at = (p_transaction ->> 'updatedAt')::timestamptz
    where billing_type = 2 and billing_id = p_transaction ->> 'id'
      and payment_failed_at is null;
  end if;
  return v_result;
end;
$$;

-- The order sync of 20261122007200, with the failed Paddle payment as an order.
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
  -- An open Paddle invoice is a failed payment only once Paddle said so (past_due).
  if new.billing_type = 2 and v_status = 50 and new.payment_failed_at is null then
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

drop trigger invoices_sync_order on public.invoices;
create trigger invoices_sync_order
  after insert or update of status, amount, payment_failed_at on public.invoices
  for each row execute function app.sync_invoice_order();

-- Open Paddle invoices of subscriptions already past due: their payment failed.
update public.invoices i set payment_failed_at = i.billing_synced_at
from public.subscriptions s
where i.billing_type = 2 and i.status = 'open' and i.payment_failed_at is null
  and s.id = i.subscription_id and s.billing_status = 'past_due';

revoke execute on all functions in schema app from public;
