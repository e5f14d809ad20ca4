-- Impersonation cannot take an account over (hardening issue, item 3). A staff impersonation
-- token (supabase/functions/kiosk-impersonate/token.ts) names the `impersonation` method in its
-- `amr` claim. Auth refuses such a token every credential change (password, e-mail, phone, MFA
-- factors) and account-delete refuses it the deletion; here the database refuses it the
-- two-factor backup codes, whose use removes the user's TOTP factors.
--
-- The guard sits on the backup-code tables rather than in each RPC: whatever writes them (the
-- generate and consume RPCs today) is covered, and a wrong code cannot be recorded against the
-- user's lockout either. Auth's own writes (supabase_auth_admin) and service-role calls carry no
-- impersonation amr and pass.

create function app.is_impersonating() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt() -> 'amr') @> '[{"method": "impersonation"}]'::jsonb, false)
$$;
comment on function app.is_impersonating() is
  'True when the request''s JWT is a staff impersonation token (amr method "impersonation").';

create function app.refuse_impersonation() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if app.is_impersonating() then
    raise exception using errcode = 'PT403', message = 'impersonation_not_allowed',
      detail = 'An impersonation session cannot change the account''s sign-in protection.',
      hint = 'form';
  end if;
  return null;
end;
$$;

-- Statement triggers: they fire even when a statement touches no row (a first generation
-- deletes nothing), and once per statement.
create trigger two_factor_backup_codes_refuse_impersonation
  before insert or update or delete on public.two_factor_backup_codes
  for each statement execute function app.refuse_impersonation();
create trigger two_factor_backup_code_failures_refuse_impersonation
  before insert or update or delete on public.two_factor_backup_code_failures
  for each statement execute function app.refuse_impersonation();

revoke execute on function app.is_impersonating(), app.refuse_impersonation() from public;
grant execute on function app.is_impersonating() to authenticated, service_role;
