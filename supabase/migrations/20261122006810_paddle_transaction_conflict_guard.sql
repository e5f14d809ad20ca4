-- The base Paddle transaction applier (20261122005800, renamed to _base by 20261122006600)
-- compared Paddle's `updatedAt` with the stored invoice's before writing, but that read finds
-- nothing while a concurrent notification of the same new transaction is inserting it: the
-- later insert then fell into `on conflict do update` and wrote its (possibly older) state over
-- the newer one, e.g. `billed` (open) over `paid`. The conflict update now carries the same
-- guard, and an update it skips answers 'stale' (as the first check does), so the domain order
-- wrapper does not act on an outdated transaction. Only this function is re-created.
create or replace function app.apply_paddle_transaction_base(p_transaction jsonb) returns text
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
  v_written integer;
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
      paid_at = excluded.paid_at, billing_synced_at = excluded.billing_synced_at
    where public.invoices.billing_synced_at is null
      or public.invoices.billing_synced_at <= excluded.billing_synced_at;
    get diagnostics v_written = row_count;
    if v_written = 0 then
      -- A newer notification of the same transaction got its row in first (it was not there
      -- yet when this one looked, above): it stays.
      return 'stale';
    end if;
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
