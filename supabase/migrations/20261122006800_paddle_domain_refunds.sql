-- A failed paid name of a Paddle order (billing type 2, 20261122006600) is refunded on its
-- order's Paddle transaction, as a Stripe order's is on its Stripe invoice: the refund target
-- is the order's first paid invoice of the order's own billing type (it was billing type 1 only,
-- which left a Paddle order's refund waiting for ever). The worker refunds it with a refund
-- adjustment (domain-purchase/worker.ts).
create or replace function app.domain_refund_target(p_id uuid)
returns table (invoice_id text, amount bigint, currency text, reason text)
language sql stable security definer
set search_path = ''
as $$
  select (select i.billing_id from public.invoices i
      where i.order_id = d.order_id and i.billing_type = o.billing_type
        and i.status in ('paid', 'refunded')
      order by i.created_at limit 1),
    d.refund_amount, o.currency::text, d.problem
  from public.purchased_domains d
  join public.orders o on o.id = d.order_id
  where d.id = p_id and d.status = 'failed' and d.refund_amount > 0 and d.refunded_at is null
$$;
