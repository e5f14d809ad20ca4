-- The database's own conventions (supabase/tests/core/structure.test.ts, kiosk/rls.test.ts), for
-- what this session's migrations added beside them:
--   * every app function is security definer with an empty search_path (only trigger functions
--     may run as the invoker), so a caller's role never changes what a helper sees;
--   * every foreign key column is indexed (policies and cascades read it);
--   * staff read through a policy of their own: a table whose every policy names app.is_staff()
--     is one only staff may read, and the kiosk lists those.

alter function app.usage_month() security definer;
alter function app.overage_options() security definer;
alter function app.monthly_counter_options() security definer;
alter function app.domain_serves_links(public.domains) security definer;
alter function app.domain_work_due(public.purchased_domains) security definer;

create index overage_charges_subscription_id_idx on public.overage_charges (subscription_id);

drop policy "Billing managers can read purchased domains" on public.purchased_domains;
create policy "Billing managers can read purchased domains" on public.purchased_domains
  for select to authenticated
  using ((select app.may_manage_billing(account_id)));
create policy "Staff can read purchased domains" on public.purchased_domains
  for select to authenticated
  using ((select app.is_staff()));

drop policy "Billing managers can read overage charges" on public.overage_charges;
create policy "Billing managers can read overage charges" on public.overage_charges
  for select to authenticated
  using (
    account_id in (select app.accounts_with_permission('billing'))
    or account_id in (select app.accounts_with_permission('subscriptions'))
  );
create policy "Staff can read overage charges" on public.overage_charges
  for select to authenticated
  using ((select app.is_staff()));
