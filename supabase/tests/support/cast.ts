import type pg from 'pg';
import {
  addOrganizationUser,
  addTeamMember,
  createOrganization,
  createOrganizationRole,
  createTeam,
  createUsers,
  type TestOrganization,
  createUser,
  type TestRole,
  type TestTeam,
  type TestUser,
} from './factories.ts';

/**
 * The actors every permission matrix is written for, around one organization with one team:
 * - owner: owns the organization (and so holds every permission on it and its teams);
 * - orgUser: an organization user whose role holds only `limitedPermissions`;
 * - supervisor: an organization user whose role holds `supervisor`;
 * - teamAdmin, member, viewer: on `team` with those roles;
 * - stranger: signed in, belongs to nothing here;
 * - staff: the developer flag, belongs to nothing here.
 * Anonymous visitors are `null` actors (see asActor).
 */
export interface Cast {
  organization: TestOrganization;
  team: TestTeam;
  limitedRole: TestRole;
  supervisorRole: TestRole;
  owner: TestUser;
  orgUser: TestUser;
  supervisor: TestUser;
  teamAdmin: TestUser;
  member: TestUser;
  viewer: TestUser;
  stranger: TestUser;
  staff: TestUser;
}

export async function createCast(
  client: pg.ClientBase,
  options: { limitedPermissions?: string[] } = {},
): Promise<Cast> {
  const [owner, orgUser, supervisor, teamAdmin, member, viewer, stranger, staff] =
    await createUsers(client, [
      { name: 'Owner' },
      { name: 'Org user' },
      { name: 'Supervisor' },
      { name: 'Team admin' },
      { name: 'Member' },
      { name: 'Viewer' },
      { name: 'Stranger' },
      { name: 'Staff', developer: true },
    ]);
  const organization = await createOrganization(client, { ownerId: owner.id });
  const limitedRole = await createOrganizationRole(client, {
    organizationId: organization.id,
    permissions: options.limitedPermissions ?? ['domains'],
    name: 'Limited',
  });
  const supervisorRole = await createOrganizationRole(client, {
    organizationId: organization.id,
    permissions: ['supervisor'],
    name: 'Supervisor',
  });
  await addOrganizationUser(client, {
    organizationId: organization.id,
    userId: orgUser.id,
    roleId: limitedRole.id,
  });
  await addOrganizationUser(client, {
    organizationId: organization.id,
    userId: supervisor.id,
    roleId: supervisorRole.id,
  });
  const team = await createTeam(client, { ownerId: owner.id, organizationId: organization.id });
  await addTeamMember(client, { teamId: team.id, userId: teamAdmin.id, role: 'admin' });
  await addTeamMember(client, { teamId: team.id, userId: member.id, role: 'member' });
  await addTeamMember(client, { teamId: team.id, userId: viewer.id, role: 'viewer' });
  return {
    organization,
    team,
    limitedRole,
    supervisorRole,
    owner,
    orgUser,
    supervisor,
    teamAdmin,
    member,
    viewer,
    stranger,
    staff,
  };
}

/**
 * One more organization user of the cast's organization, whose role holds `permission` alone
 * (the "org user with and without each permission" actors of a matrix).
 */
export async function addOrgUserWith(
  client: pg.ClientBase,
  cast: Pick<Cast, 'organization'>,
  permission: string,
): Promise<TestUser> {
  const user = await createUser(client, { name: `Org ${permission}` });
  const role = await createOrganizationRole(client, {
    organizationId: cast.organization.id,
    permissions: [permission],
    name: `Only ${permission}`,
  });
  await addOrganizationUser(client, {
    organizationId: cast.organization.id,
    userId: user.id,
    roleId: role.id,
  });
  return user;
}
