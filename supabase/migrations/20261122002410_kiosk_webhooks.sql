-- The kiosk's read-only view of outgoing webhooks (kiosk/src/resources/webhooks): every
-- endpoint with its account and how its deliveries fare. Staff only (the underlying tables'
-- staff policies, and the filter below); the signing secrets stay in app.webhook_secrets.

create view public.kiosk_webhook_endpoints with (security_invoker = true) as
select
  w.id,
  w.account_id,
  ac.name as account_name,
  ac.kind as account_kind,
  w.url,
  w.description,
  w.events,
  w.enabled,
  w.disabled_reason,
  w.disabled_at,
  w.created_at,
  (select count(*) from public.webhook_deliveries d
   where d.endpoint_id = w.id and d.status = 'failed')::bigint as failed_deliveries,
  (select count(*) from public.webhook_deliveries d
   where d.endpoint_id = w.id and d.status = 'retrying')::bigint as retrying_deliveries,
  (select max(a.attempted_at) from public.webhook_attempts a
   where a.endpoint_id = w.id and not a.succeeded) as last_failure_at
from public.webhook_endpoints w
join public.accounts ac on ac.id = w.account_id
where (select app.is_staff());
comment on view public.kiosk_webhook_endpoints is
  'Staff only: webhook endpoints with their account and failing deliveries.';

revoke all on public.kiosk_webhook_endpoints from anon, authenticated;
grant select on public.kiosk_webhook_endpoints to authenticated;
