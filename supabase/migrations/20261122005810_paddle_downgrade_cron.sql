-- Pending Paddle downgrades take effect at the period end (20261122005800): Paddle has no
-- schedules, so shortly before the period ends the billing function swaps the subscription's item
-- to the new price without a charge, and Paddle's renewal then bills the new plan. A cron job
-- wakes it when a pending downgrade is due (nothing is sent otherwise), like domain-verify.
--
-- Settings, one row. Production sets where the billing function is (apply_url:
-- https://<ref>.supabase.co/functions/v1/billing/paddle/scheduled-changes; apply_key: the
-- service role key, readable by postgres only); the local stack writes its own at start
-- (supabase/local/src/webhook-settings.ts).

create table app.billing_schedule_settings (
  id boolean primary key default true check (id),
  apply_url text,
  apply_key text,
  -- How long before the period end a pending downgrade is applied: the renewal must not come
  -- first, and the plan should not change much earlier.
  lead_seconds integer not null default 3600 check (lead_seconds between 60 and 86400)
);
insert into app.billing_schedule_settings default values;
comment on table app.billing_schedule_settings is
  'Pending Paddle downgrades: where the billing function applies them, and how early.';
revoke all on app.billing_schedule_settings from public, anon, authenticated, service_role;

/** What the cron job does: one request to the billing function when a downgrade is due. */
create function app.kick_paddle_downgrades() returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_settings app.billing_schedule_settings;
begin
  select * into v_settings from app.billing_schedule_settings;
  if v_settings.apply_url is null or not exists (
    select 1 from public.subscriptions s
    where s.billing_type = 2 and s.billing_id like '%:scheduled' and s.ends_at is null
      and s.period_starts_at <= now() + make_interval(secs => v_settings.lead_seconds)
  ) then
    return null;
  end if;
  return net.http_post(
    url => v_settings.apply_url,
    body => jsonb_build_object('lead_seconds', v_settings.lead_seconds),
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.apply_key),
    timeout_milliseconds => 60000);
end;
$$;

revoke execute on function app.kick_paddle_downgrades() from public;

select cron.schedule('paddle-downgrades', '* * * * *', $$select app.kick_paddle_downgrades()$$);
