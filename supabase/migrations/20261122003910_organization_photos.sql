-- Organization photos (organization/{org}/settings/profile): files in the public `avatars`
-- bucket under `organizations/<organization id>/<uuid>.png|jpg`. Holders of the organization's
-- `profile` permission (the owner holds every permission) list, add, replace and delete them;
-- anyone fetches one by its public address, as users' photos. Users' own folders are named by
-- their id, so the two kinds of folder never meet.

-- The organization whose photo folder a storage name is in, when the caller may write there.
create function app.writable_organization_photo_folder(p_name text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (storage.foldername(p_name))[1] = 'organizations'
    and exists (
      select 1 from public.organizations o
      where o.id::text = (storage.foldername(p_name))[2]
        and o.account_id in (select app.accounts_with_permission('profile'))
    )
$$;

-- A photo file name as the portal names it, in a folder the caller may write.
create function app.is_organization_photo_path(p_name text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select p_name ~ '^organizations/[0-9a-f-]{36}/[0-9a-f-]{36}\.(png|jpg)$'
    and app.writable_organization_photo_folder(p_name)
$$;
revoke execute on function app.writable_organization_photo_folder(text),
  app.is_organization_photo_path(text) from public;
grant execute on function app.writable_organization_photo_folder(text),
  app.is_organization_photo_path(text) to authenticated;

create policy "Profile holders can list their organization's photos" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and app.writable_organization_photo_folder(name));

create policy "Profile holders can add their organization's photo" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and app.is_organization_photo_path(name));

create policy "Profile holders can replace their organization's photo" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and app.writable_organization_photo_folder(name))
  with check (bucket_id = 'avatars' and app.is_organization_photo_path(name));

create policy "Profile holders can delete their organization's photos" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and app.writable_organization_photo_folder(name));

-- The photo address may only name one of the organization's own stored photos (any host, so
-- the same rule holds locally and on a hosted project): no tracking pixels from elsewhere.
update public.organizations set photo_url = null
where photo_url is not null
  and photo_url !~ ('^https?://[^/?#]+/storage/v1/object/public/avatars/organizations/'
    || id::text || '/[0-9a-f-]{36}\.(png|jpg)$');
alter table public.organizations add constraint organizations_photo_url_own_photo check (
  photo_url is null
  or photo_url ~ ('^https?://[^/?#]+/storage/v1/object/public/avatars/organizations/'
    || id::text || '/[0-9a-f-]{36}\.(png|jpg)$')
);
