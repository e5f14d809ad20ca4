-- aal2 for the organization and team writes that security-definer RPCs make.
--
-- 20261122001400_two_factor.sql guards these tables with restrictive policies, but
-- create_organization, create_team, accept_invitation and archive_organization run as their
-- owner and pass by row-level security. The same rule for them, as triggers that read the
-- caller's JWT (app.enforce_aal2): once a user has a verified factor, their writes here need an
-- aal2 session. Writes that carry no user (service role, seeds, account deletion) pass.

create trigger organizations_enforce_aal2
  before insert or update or delete on public.organizations
  for each row execute function app.enforce_aal2();

create trigger organization_users_enforce_aal2
  before insert or update or delete on public.organization_users
  for each row execute function app.enforce_aal2();

create trigger teams_enforce_aal2
  before insert or update or delete on public.teams
  for each row execute function app.enforce_aal2();

create trigger team_members_enforce_aal2
  before insert or update or delete on public.team_members
  for each row execute function app.enforce_aal2();

revoke execute on all functions in schema app from public;
