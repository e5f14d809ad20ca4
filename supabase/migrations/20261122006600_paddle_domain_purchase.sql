-- Domain purchase through billing type 2 (Paddle Billing), beside the Stripe appliers of
-- 20261122005700. A domain order's checkout is one Paddle transaction (custom data
-- `kind = domain-purchase`, `order_id`, `account_id`; billing_id of the order) whose recurring
-- items become the `shopping-cart` subscription that renews the names yearly. Paddle copies the
-- custom data onto the subscription and its renewal transactions, so every entity finds its
-- order as the Stripe ones do (app.domain_order_of).
--
-- The Paddle appliers are wrapped (renamed, and called for everything that is not a domain
-- order), so app.record_paddle_event and the billing function stay as they are. Both keep the
-- base's guard: an entity older than the row it would change has no effect.

alter function app.apply_paddle_subscription(jsonb) rename to apply_paddle_subscription_base;
alter function app.apply_paddle_transaction(jsonb) rename to apply_paddle_transaction_base;

-- A domain order's subscription: kept (hidden) beside the plan's, as type `shopping-cart`.
create function app.apply_paddle_subscription(p_subscription jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_order uuid := app.domain_order_of(p_subscription -> 'customData');
  v_at timestamptz := (p_subscription ->> 'updatedAt')::timestamptz;
  v_status text := p_subscription ->> 'status';
  v_period jsonb := p_subscription -> 'currentBillingPeriod';
  v_change jsonb := p_subscription -> 'scheduledChange';
  v_account uuid;
  v_ends_at timestamptz;
begin
  if v_order is null then
    return app.apply_paddle_subscription_base(p_subscription);
  end if;
  if p_subscription ->> 'id' is null or v_at is null then
    return 'ignored';
  end if;
  select account_id into v_account from public.orders where id = v_order;
  if v_status = 'canceled' then
    v_ends_at := coalesce((p_subscription ->> 'canceledAt')::timestamptz, v_at);
  elsif v_change ->> 'action' = 'cancel' then
    v_ends_at := (v_change ->> 'effectiveAt')::timestamptz;
  end if;
  insert into public.subscriptions (account_id, type, name, hidden, billing_type, billing_id,
    interval, amount, currency, quantity, ends_at, period_starts_at, period_ends_at,
    billing_status, billing_synced_at)
  values (v_account, 'shopping-cart', 'domains', true, 2, p_subscription ->> 'id', 'yearly',
    (select coalesce(sum((item -> 'price' -> 'unitPrice' ->> 'amount')::bigint
        * coalesce((item ->> 'quantity')::integer, 1)), 0)
     from jsonb_array_elements(coalesce(p_subscription -> 'items', '[]')) as items(item)),
    upper(p_subscription ->> 'currencyCode'), 1, v_ends_at,
    (v_period ->> 'startsAt')::timestamptz, (v_period ->> 'endsAt')::timestamptz, v_status, v_at)
  on conflict (billing_type, billing_id) do update set
    amount = excluded.amount, ends_at = excluded.ends_at,
    -- A canceled subscription has no current period: the row keeps its last one.
    period_starts_at = coalesce(excluded.period_starts_at, public.subscriptions.period_starts_at),
    period_ends_at = coalesce(excluded.period_ends_at, public.subscriptions.period_ends_at),
    billing_status = excluded.billing_status, billing_synced_at = excluded.billing_synced_at
  where public.subscriptions.billing_synced_at is null
    or public.subscriptions.billing_synced_at <= excluded.billing_synced_at;
  return case when found then 'applied' else 'stale' end;
end;
$$;

-- Transactions of a domain order: the checkout's own (its id is the order's billing_id) pays the
-- order; each renewal (`subscription_recurring`) gets its own order (items: the names it renews)
-- whose names renew when it is paid and wait as renewal_failed when it is past due. Both are
-- stored as invoices by the base, carrying their order (the trigger of 20261122005700).
create function app.apply_paddle_transaction(p_transaction jsonb) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_id text := p_transaction ->> 'id';
  v_subscription text := p_transaction ->> 'subscriptionId';
  v_order uuid := coalesce(app.domain_order_of(p_transaction -> 'customData'), (
    select d.order_id from public.purchased_domains d
    where v_subscription is not null and d.billing_type = 2
      and d.billing_subscription_id = v_subscription
    limit 1));
  v_status text := p_transaction ->> 'status';
  v_first boolean;
  v_renewal uuid;
  v_result text;
begin
  if v_order is null then
    return app.apply_paddle_transaction_base(p_transaction);
  end if;
  select o.billing_type = 2 and o.billing_id = v_id into v_first
  from public.orders o where o.id = v_order;
  if v_first then
    perform set_config('app.invoice_order', v_order::text, true);
    v_result := app.apply_paddle_transaction_base(p_transaction);
    perform set_config('app.invoice_order', '', true);
    if v_result <> 'applied' then
      return v_result;
    end if;
    if v_status in ('paid', 'completed') then
      perform app.domain_order_paid(v_order, v_subscription);
      -- `transaction.paid` comes before Paddle made the subscription: `completed` names it.
      update public.purchased_domains set billing_subscription_id = v_subscription
      where order_id = v_order and v_subscription is not null
        and billing_subscription_id is null;
    elsif v_status = 'canceled' then
      update public.purchased_domains set status = 'cancelled'
      where order_id = v_order and status = 'pending';
      update public.orders set status = 49 where id = v_order and status = 16;
    end if;
    return v_result;
  end if;
  if p_transaction ->> 'origin' is distinct from 'subscription_recurring' then
    return app.apply_paddle_transaction_base(p_transaction);
  end if;

  select o.id into v_renewal from public.orders o
  where o.billing_type = 2 and o.billing_id = v_id;
  if v_renewal is null then
    insert into public.orders (account_id, user_id, status, billing_type, billing_id, amount,
      currency, purchase_source)
    select o.account_id, o.user_id, 32, 2, v_id,
      coalesce((p_transaction -> 'details' -> 'totals' ->> 'grandTotal')::bigint, 0),
      upper(p_transaction ->> 'currencyCode'), 'domain-renewal'
    from public.orders o where o.id = v_order
    on conflict (billing_type, billing_id) do nothing
    returning id into v_renewal;
    if v_renewal is null then
      select o.id into v_renewal from public.orders o
      where o.billing_type = 2 and o.billing_id = v_id;
    else
      insert into public.order_items (order_id, kind, description, quantity, amount)
      select v_renewal, 'domain', 'Renewal: ' || d.domain, 1, 0
      from public.purchased_domains d
      where d.order_id = v_order and d.status in ('registered', 'renewing', 'renewal_failed');
    end if;
  end if;
  perform set_config('app.invoice_order', v_renewal::text, true);
  v_result := app.apply_paddle_transaction_base(p_transaction);
  perform set_config('app.invoice_order', '', true);
  if v_result <> 'applied' then
    return v_result;
  end if;

  if v_status in ('paid', 'completed') then
    update public.orders set status = 48 where id = v_renewal and status <> 48;
    update public.purchased_domains set status = 'renewing', renewal_order_id = v_renewal,
      problem = null, owner_notified_at = null, locked_until = null
    where order_id = v_order and status in ('registered', 'renewal_failed')
      and renewal_order_id is distinct from v_renewal;
  elsif v_status = 'past_due' then
    update public.orders set status = 50 where id = v_renewal and status = 32;
    update public.purchased_domains set status = 'renewal_failed', renewal_order_id = v_renewal,
      problem = 'The renewal payment failed. Update your payment method before the domain '
        || 'expires.'
    where order_id = v_order and status = 'registered';
  end if;
  return v_result;
end;
$$;

revoke execute on all functions in schema app from public;
