import { describe, expect, it } from 'vitest';
import type { OrganizationFacts, OrgPermission, TeamMembershipFacts } from './permissions.ts';
import {
  ACCOUNT_PERMISSIONS,
  canCreateLinksInOrganization,
  canCreateTeam,
  canReachPersonalWorkspace,
  canReOnboard,
  canSeeAuditItem,
  canSeeOrganizationSettings,
  canSeeTeamSettings,
  hasOrgPermission,
  ORG_PERMISSIONS,
  organizationLanding,
  orgPermissionsOf,
  teamAccountPermissions,
  teamChoice,
  visibleTeamSettingsLinks,
} from './permissions.ts';

const OWNER = 'owner-id';
const ME = 'user-id';

function team(slug: string, role: 'admin' | 'member' | 'viewer' | null): TeamMembershipFacts {
  return { slug, membership: role == null ? null : { role } };
}

function org(
  permissions: readonly string[] | null,
  teams: readonly TeamMembershipFacts[] = [],
): OrganizationFacts {
  return {
    owner: { id: OWNER },
    role: permissions == null ? null : { permissions: permissions.map((name) => ({ name })) },
    teams,
  };
}

describe('organization permissions (app-shell 3 and 6)', () => {
  it('gives the owner every permission and others their role list', () => {
    expect([...orgPermissionsOf(org(null), OWNER)]).toEqual([...ORG_PERMISSIONS]);
    expect([...orgPermissionsOf(org(['audit', 'SSO', 'unknown']), ME)]).toEqual(['audit', 'sso']);
    expect(orgPermissionsOf(org(null), ME).size).toBe(0);
    expect(hasOrgPermission(org(['teams']), ME, 'teams')).toBe(true);
    expect(hasOrgPermission(org(['teams']), ME, 'roles')).toBe(false);
  });

  it('lets supervisors, and team admins or members, create links; viewers and strangers not', () => {
    const viewerTeam = team('ops', 'viewer');
    const memberTeam = team('sales', 'member');
    expect(canCreateLinksInOrganization(org(['supervisor'], [viewerTeam]), ME, viewerTeam)).toBe(
      true,
    );
    expect(canCreateLinksInOrganization(org([], [memberTeam]), ME, memberTeam)).toBe(true);
    expect(
      canCreateLinksInOrganization(org([], [team('a', 'admin')]), ME, team('a', 'admin')),
    ).toBe(true);
    expect(canCreateLinksInOrganization(org([], [viewerTeam]), ME, viewerTeam)).toBe(false);
    expect(canCreateLinksInOrganization(org(['teams']), ME, team('x', null))).toBe(false);
    // Without a team: any team where the user is admin or member will do.
    expect(canCreateLinksInOrganization(org([], [viewerTeam, memberTeam]), ME)).toBe(true);
    expect(canCreateLinksInOrganization(org([], [viewerTeam]), ME)).toBe(false);
    expect(canCreateLinksInOrganization(org(null), OWNER, viewerTeam)).toBe(true);
  });

  it('lets the teams permission or the owner create a team', () => {
    expect(canCreateTeam(org(['teams']), ME)).toBe(true);
    expect(canCreateTeam(org(null), OWNER)).toBe(true);
    expect(canCreateTeam(org(['members']), ME)).toBe(false);
  });

  it('needs profile, domains, users, teams and members to re-onboard', () => {
    const all = ['profile', 'domains', 'users', 'teams', 'members'];
    expect(canReOnboard(org(all), ME)).toBe(true);
    for (const missing of all) {
      expect(canReOnboard(org(all.filter((name) => name !== missing)), ME)).toBe(false);
    }
    expect(canReOnboard(org(null), OWNER)).toBe(true);
  });

  it('shows organization settings to holders of profile, users, roles, SSO or domains', () => {
    for (const permission of ['profile', 'users', 'roles', 'sso', 'domains']) {
      expect(canSeeOrganizationSettings(org([permission]), ME)).toBe(true);
    }
    expect(canSeeOrganizationSettings(org(['teams', 'audit', 'supervisor']), ME)).toBe(false);
  });

  it('shows team settings links Teams, Members, Team Domains, API Tokens by permission, and to team admins', () => {
    expect(
      visibleTeamSettingsLinks(org(['members', 'supervisor']), ME).map((l) => l.label),
    ).toEqual(['Members', 'API Tokens']);
    expect(visibleTeamSettingsLinks(org(null), OWNER).map((l) => l.label)).toEqual([
      'Teams',
      'Members',
      'Team Domains',
      'API Tokens',
    ]);
    expect(canSeeTeamSettings(org(['domains']), ME)).toBe(true);
    expect(canSeeTeamSettings(org([], [team('a', 'admin')]), ME)).toBe(true);
    expect(canSeeTeamSettings(org([], [team('a', 'member')]), ME)).toBe(false);
  });

  it('lets an owner, an org user, or a team admin/member reach the personal workspace', () => {
    expect(canReachPersonalWorkspace(org(null), OWNER)).toBe(true);
    expect(canReachPersonalWorkspace(org([]), ME)).toBe(true);
    expect(canReachPersonalWorkspace(org(null, [team('a', 'member')]), ME)).toBe(true);
    expect(canReachPersonalWorkspace(org(null, [team('a', 'viewer')]), ME)).toBe(false);
  });

  it("shows the audit item to owners and holders of 'audit'", () => {
    expect(canSeeAuditItem(org(null), OWNER)).toBe(true);
    expect(canSeeAuditItem(org(['audit']), ME)).toBe(true);
    expect(canSeeAuditItem(org(['users']), ME)).toBe(false);
  });

  it("labels viewer teams '(Viewer Access Only)' and disables them unless the user holds 'teams'", () => {
    const viewerTeam = team('ops', 'viewer');
    expect(teamChoice(org([]), ME, viewerTeam)).toEqual({
      disabled: true,
      labelSuffix: '(Viewer Access Only)',
    });
    expect(teamChoice(org(['teams']), ME, viewerTeam)).toEqual({
      disabled: false,
      labelSuffix: null,
    });
    expect(teamChoice(org([]), ME, team('sales', 'member'))).toEqual({
      disabled: false,
      labelSuffix: null,
    });
  });

  it('lands owners and supervisors on the dashboard, role holders on org.me, others on their first team', () => {
    expect(organizationLanding(org(null), OWNER)).toEqual({ route: 'org.dashboard' });
    expect(organizationLanding(org(['supervisor']), ME)).toEqual({ route: 'org.dashboard' });
    expect(organizationLanding(org(['users']), ME)).toEqual({ route: 'org.me' });
    expect(organizationLanding(org(null, [team('a', null), team('b', 'viewer')]), ME)).toEqual({
      route: 'org.team',
      teamSlug: 'b',
    });
    expect(organizationLanding(org(null), ME)).toBeNull();
  });
});

describe('team account permissions (data-model contract)', () => {
  const sorted = (set: ReadonlySet<string>) => [...set].sort();

  it('grants admin, member and viewer their lists', () => {
    expect(sorted(teamAccountPermissions(null, ME, team('a', 'admin')))).toEqual([
      'api',
      'billing',
      'domains',
      'links.create',
      'links.manage',
      'links.read',
      'members',
      'settings',
    ]);
    expect(sorted(teamAccountPermissions(null, ME, team('a', 'member')))).toEqual([
      'links.create',
      'links.read',
    ]);
    expect(sorted(teamAccountPermissions(null, ME, team('a', 'viewer')))).toEqual(['links.read']);
    expect(teamAccountPermissions(null, ME, team('a', null)).size).toBe(0);
  });

  it('adds what organization permissions grant on its teams', () => {
    const grants = (permissions: OrgPermission[]) =>
      sorted(teamAccountPermissions(org(permissions), ME, team('a', null)));
    expect(grants(['supervisor'])).toEqual(['links.create', 'links.manage', 'links.read']);
    expect(grants(['teams'])).toEqual(['members', 'settings']);
    expect(grants(['domains'])).toEqual(['domains']);
    expect(grants(['subscriptions'])).toEqual(['billing']);
    expect(grants(['audit'])).toEqual([]);
    expect(sorted(teamAccountPermissions(org(['teams']), ME, team('a', 'viewer')))).toEqual([
      'links.read',
      'members',
      'settings',
    ]);
    expect(teamAccountPermissions(org(null), OWNER, team('a', null)).size).toBe(
      ACCOUNT_PERMISSIONS.length,
    );
  });
});
