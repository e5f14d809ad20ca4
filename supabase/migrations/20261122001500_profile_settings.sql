-- Settings: the profile photo in Storage, and deleting one's own account (app-shell 2:
-- settings/profile and settings/profile/delete).

-- ---------------------------------------------------------------------------------------------
-- 1. Profile photos: the public `avatars` bucket (supabase/config.toml). Anyone may fetch a photo
-- by its public address (Storage serves public buckets without RLS); through the API each user
-- lists, adds, replaces and deletes only the files of their own folder `<user id>/`, one level
-- deep, named like the portal names them (`<uuid>.png|jpg`).

create function app.is_own_avatar_path(p_name text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null
    and p_name ~ ('^' || (select auth.uid())::text || '/[0-9a-f-]{36}\.(png|jpg)$')
$$;
comment on function app.is_own_avatar_path(text) is
  'The name is a photo file in the caller''s own avatars folder.';
grant execute on function app.is_own_avatar_path(text) to authenticated;

create policy "Users can list their own profile photos" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users can add profile photos to their own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and app.is_own_avatar_path(name));

create policy "Users can replace their own profile photos" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and app.is_own_avatar_path(name));

create policy "Users can delete their own profile photos" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- The profile's photo address may only name one of the user's own stored photos (any host, so
-- the same rule holds locally and on a hosted project): no tracking pixels from elsewhere.
alter table public.profiles add constraint profiles_photo_url_own_avatar check (
  photo_url is null
  or photo_url ~ ('^https?://[^/?#]+/storage/v1/object/public/avatars/' || id::text || '/[0-9a-f-]{36}\.(png|jpg)$')
);

-- ---------------------------------------------------------------------------------------------
-- 2. Deleting an account, in one transaction. The account-delete edge function checks the
-- password, calls this as the service role, then removes the user's stored files through the
-- Storage API (rows and bytes go together there).
--
-- What goes, following the foreign keys:
--   * auth.users row → identities, sessions, refresh tokens, MFA factors (auth's cascades);
--     profile, notifications, survey answers, team and organization memberships, invitations
--     they sent, shopping cart (cascade).
--   * every account they own → the personal workspace, and teams and organizations they own,
--     with those accounts' links, long URLs, tags, presets, domains, tokens, bulk jobs,
--     subscriptions, orders, invoices and usage (cascade from accounts).
--   * clicks and their hourly rollups, through the triggers that clean up after deleted links
--     and accounts (clicks carry no foreign key).
--   * links of other accounts on a domain that goes: their domain_id restricts the domain's
--     deletion, and they could no longer redirect. All doomed links are deleted first, so the
--     cascade never meets a domain that still has links.
-- What stays, anonymised (created_by / user_id / actor_id set null by their foreign keys):
--   links they made in other people's teams and organizations, orders placed for such accounts,
--   audit rows, kiosk records and announcements they wrote.
-- Returns the Storage paths the function must delete afterwards.

create function app.delete_user_account(p_user_id uuid) returns table (bucket text, path text)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_accounts uuid[];
  v_domains uuid[];
begin
  perform 1 from auth.users where id = p_user_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'user_not_found',
      detail = 'User not found', hint = 'form';
  end if;

  v_accounts := array(select a.id from public.accounts a where a.owner_id = p_user_id);
  v_domains := array(select d.id from public.domains d where d.account_id = any (v_accounts));

  delete from public.aliases l
  where l.account_id = any (v_accounts) or l.domain_id = any (v_domains);

  -- The files to remove afterwards: photos, and bulk files in the user's folders.
  return query
    select o.bucket_id, o.name from storage.objects o
    where o.bucket_id in ('avatars', 'imports', 'exports')
      and (storage.foldername(o.name))[1] = p_user_id::text;

  delete from auth.users u where u.id = p_user_id;
end;
$$;
comment on function app.delete_user_account(uuid) is
  'Deletes a user and everything they own (see the migration); returns their Storage files.';
revoke execute on function app.delete_user_account(uuid) from public, anon, authenticated;
grant execute on function app.delete_user_account(uuid) to service_role;

revoke execute on all functions in schema app from public;
