-- A name whose order was refunded in full while the registrar was registering it (builds on
-- 20261122007900_refunded_domain_orders.sql). The refund's trigger cancelled the row and said the
-- name is not registered; the registrar's answer, which came after, says it is. The registration
-- cannot be taken back, so the row tells the truth instead: registered at the registrar until
-- its expiry, not the customer's (they have their money back), never renewed. The row stays
-- cancelled, so nothing makes it a branded domain, and the worker's hold on it ends here, so its
-- renewal stop is taken at once, not when the claim's two minutes are over.

create function app.record_registration_after_refund(p_id uuid, p_expires timestamptz)
returns text
language sql security definer
set search_path = ''
as $$
  update public.purchased_domains set expires_at = p_expires, locked_until = null,
    problem = 'The order was refunded while ' || domain::text || ' was being registered: the'
      || ' registrar registered it until '
      || to_char(p_expires at time zone 'UTC', 'YYYY-MM-DD')
      || '. It is not the customer''s and is not renewed.'
  where id = p_id and status = 'cancelled' and renewal_stop is not null
  returning 'recorded'
$$;

revoke execute on function app.record_registration_after_refund(uuid, timestamptz) from public;
grant execute on function app.record_registration_after_refund(uuid, timestamptz) to service_role;
