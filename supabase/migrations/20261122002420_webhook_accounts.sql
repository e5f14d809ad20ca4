-- The accounts whose webhooks the caller may manage, for the portal's account picker on
-- /app/settings/webhooks: the very rule the webhook policies apply (settings permission, plan
-- with `webhooks`), so that the picker never offers an account RLS would refuse, nor hides one it
-- allows. The personal account comes first, then teams, then organizations, each by name.

create function public.webhook_accounts()
returns table (account_id uuid, kind text, name text)
language sql stable security definer
set search_path = ''
as $$
  select a.id, a.kind, a.name
  from public.accounts a
  where a.id in (select app.accounts_with_permission_and_feature('settings', 'webhooks'))
  order by case a.kind when 'personal' then 0 when 'team' then 1 else 2 end, a.name, a.id
$$;
comment on function public.webhook_accounts() is
  'Accounts whose webhook endpoints the caller manages (settings permission, plan with webhooks).';

revoke all on function public.webhook_accounts() from public, anon;
grant execute on function public.webhook_accounts() to authenticated, service_role;
