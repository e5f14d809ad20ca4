-- The Paddle overage charge without double billing (builds on 20261122006000). Paddle takes no
-- idempotency key, so a worker that charged the subscription and died before recording it would
-- charge it again on the next claim. The worker now records that it is about to ask the provider
-- (provider_requested_at, committed before the call); a claim of a charge already asked for looks
-- for it at Paddle first (the subscription's next transaction, by the charge id in the price's
-- custom data) and records what it finds instead of charging again.

alter table public.overage_charges
  add column provider_requested_at timestamptz;

comment on column public.overage_charges.provider_requested_at is
  'When the provider was first asked to bill this charge: set before the call, so a retry knows '
  'to look for the charge at the provider before asking again.';

/** Marks the charge as asked for; answers whether it had been asked for before (a retry). */
create function app.begin_overage_report(p_charge_id uuid) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_before timestamptz;
begin
  select provider_requested_at into v_before from public.overage_charges
  where id = p_charge_id and status = 'pending'
  for update;
  if not found then
    raise exception 'overage charge % is not pending', p_charge_id using errcode = '22023';
  end if;
  if v_before is null then
    update public.overage_charges set provider_requested_at = now() where id = p_charge_id;
  end if;
  return v_before is not null;
end;
$$;

revoke execute on all functions in schema app from public;
