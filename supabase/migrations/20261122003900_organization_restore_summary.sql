-- What restoring an archived organization brings back (link-creation "Restore-organization
-- modal": counts of admins, teams, members and links, and the admins listed). Only the owner
-- restores an organization (archive_organization), so only the owner reads the summary; other
-- members get permission_denied and outsiders organization_not_found, as archive_organization.
-- Admins are the owner and the organization's users (those holding an organization role);
-- members are the distinct people on its teams; links are its short links not deleted.
create function public.organization_restore_summary(p_organization_id uuid)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_organization public.organizations;
  v_owner_id uuid;
  v_admins jsonb;
begin
  select o.* into v_organization
  from public.organizations o
  where o.id = p_organization_id and o.id in (select app.visible_organization_ids());
  if not found then
    perform app.raise_coded('organization_not_found');
  end if;
  select a.owner_id into v_owner_id from public.accounts a where a.id = v_organization.account_id;
  if v_owner_id is distinct from v_uid then
    perform app.raise_coded('permission_denied');
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('name', p.name, 'email', p.email)
           order by p.id <> v_owner_id, p.name, p.email), '[]'::jsonb)
  into v_admins
  from public.profiles p
  where p.id = v_owner_id
     or p.id in (select u.user_id from public.organization_users u
                 where u.organization_id = p_organization_id);
  return jsonb_build_object(
    'admins', v_admins,
    'admin_count', jsonb_array_length(v_admins),
    'team_count', (select count(*) from public.teams t where t.organization_id = p_organization_id),
    'member_count', (
      select count(distinct m.user_id)
      from public.team_members m join public.teams t on t.id = m.team_id
      where t.organization_id = p_organization_id
    ),
    'link_count', (
      select count(*) from public.aliases l
      where l.organization_id = p_organization_id and l.status <> 'deleted'
    )
  );
end;
$$;
revoke execute on function public.organization_restore_summary(uuid) from public, anon;
grant execute on function public.organization_restore_summary(uuid) to authenticated, service_role;
