-- A zone that carries a name a customer bought cannot be deleted by staff (builds on
-- 20261122008200_purchased_domain_zone.sql).
--
-- Staff see every zone of our DNS account in the kiosk (cloudflare/zones) and may delete one,
-- through kiosk-dns or the table itself. A zone made for a bought name holds that name's records:
-- deleting it would take the customer's branded domain off the air for the rest of the term they
-- paid for. A zone still owed to the purchase worker (a name that ended unregistered) is the
-- worker's to remove, and app.domain_zone_removed does so once the provider has. So a delete is
-- refused while the zone belongs to a name that is registering, registered, renewing, or whose
-- renewal failed but whose term has not ended, and while the worker still owes its removal.

create function app.refuse_bought_name_zone_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_name text;
  v_status text;
begin
  select d.domain::text, d.status into v_name, v_status
  from public.purchased_domains d
  -- A name registered before 20261122008200 has no zone id of its own: its zone is the one of
  -- its name.
  where (d.zone_id = old.zone_id or (d.zone_id is null and d.domain = old.name))
    and (d.status in ('registering', 'renewing')
      or (d.status in ('registered', 'renewal_failed')
        and (d.expires_at is null or d.expires_at > now()))
      or (d.status in ('failed', 'cancelled') and d.zone_id = old.zone_id))
  limit 1;
  if found then
    raise exception using errcode = 'PT409', message = 'dns_zone_in_use',
      detail = case when v_status in ('failed', 'cancelled')
        then format('The zone of %s is removed by the domain purchase worker; it cannot be '
          'deleted here.', v_name)
        else format('The zone carries %s, a domain a customer bought (%s); it cannot be deleted '
          'while the name is theirs.', v_name, v_status) end;
  end if;
  return old;
end;
$$;

create trigger dns_zones_bought_name_kept before delete on public.dns_zones
  for each row execute function app.refuse_bought_name_zone_delete();

revoke execute on all functions in schema app from public;
