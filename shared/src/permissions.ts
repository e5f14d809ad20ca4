/**
 * Who may do what in organizations and teams (app-shell 6, link-creation 5 and 6), as data
 * plus pure functions. The database enforces the same rules; these drive what the apps show.
 */
import type { TeamRole } from './constants.ts';

/** The spec's organization permissions; the owner holds all of them. */
export const ORG_PERMISSIONS = [
  'teams',
  'subscriptions',
  'invitations',
  'members',
  'domains',
  'profile',
  'users',
  'roles',
  'supervisor',
  'sso',
  'audit',
] as const;
export type OrgPermission = (typeof ORG_PERMISSIONS)[number];

/** Account permission names of the data-model contract (`app.has_permission`). */
export const ACCOUNT_PERMISSIONS = [
  'links.read',
  'links.create',
  'links.manage',
  'settings',
  'billing',
  'api',
  ...ORG_PERMISSIONS,
] as const;
export type AccountPermission = (typeof ACCOUNT_PERMISSIONS)[number];

/** What a team role grants on the team's account. */
export const TEAM_ROLE_PERMISSIONS = {
  admin: [
    'links.read',
    'links.create',
    'links.manage',
    'settings',
    'members',
    'domains',
    'api',
    'billing',
  ],
  member: ['links.read', 'links.create'],
  viewer: ['links.read'],
} as const satisfies Record<TeamRole, readonly AccountPermission[]>;

/** What an organization permission grants on each team account inside the organization. */
export const ORG_PERMISSION_TEAM_GRANTS = {
  supervisor: ['links.read', 'links.create', 'links.manage'],
  teams: ['settings', 'members'],
  domains: ['domains'],
  subscriptions: ['billing'],
} as const satisfies Partial<Record<OrgPermission, readonly AccountPermission[]>>;

/** Organization settings are shown to holders of any of these. */
export const ORG_SETTINGS_PERMISSIONS = [
  'profile',
  'users',
  'roles',
  'sso',
  'domains',
] as const satisfies readonly OrgPermission[];

/** Team settings links and the organization permission that shows each. */
export const TEAM_SETTINGS_LINKS = [
  { permission: 'teams', label: 'Teams' },
  { permission: 'members', label: 'Members' },
  { permission: 'domains', label: 'Team Domains' },
  { permission: 'supervisor', label: 'API Tokens' },
] as const satisfies readonly { permission: OrgPermission; label: string }[];

/** Re-onboarding an organization needs all of these. */
export const REONBOARDING_PERMISSIONS = [
  'profile',
  'domains',
  'users',
  'teams',
  'members',
] as const satisfies readonly OrgPermission[];

export const VIEWER_ONLY_SUFFIX = '(Viewer Access Only)';

export interface TeamMembershipFacts {
  slug: string;
  name?: string;
  /** The current user's membership; null when not a member. */
  membership: { role: TeamRole } | null;
}

/** An organization as the current user sees it. */
export interface OrganizationFacts {
  owner: { id: string };
  /** The current user's organization role; null when they hold none. */
  role: { permissions: readonly { name: string }[] } | null;
  teams: readonly TeamMembershipFacts[];
}

function isOrgPermission(name: string): name is OrgPermission {
  return (ORG_PERMISSIONS as readonly string[]).includes(name);
}

export function isOrganizationOwner(org: OrganizationFacts, userId: string): boolean {
  return org.owner.id === userId;
}

/** The organization permissions the user holds: all for the owner, else the role's list. */
export function orgPermissionsOf(
  org: OrganizationFacts,
  userId: string,
): ReadonlySet<OrgPermission> {
  if (isOrganizationOwner(org, userId)) return new Set(ORG_PERMISSIONS);
  // The spec writes "SSO"; the contract writes "sso". Names are compared lower-cased.
  const names = (org.role?.permissions ?? []).map((permission) => permission.name.toLowerCase());
  return new Set(names.filter(isOrgPermission));
}

export function hasOrgPermission(
  org: OrganizationFacts,
  userId: string,
  permission: OrgPermission,
): boolean {
  return orgPermissionsOf(org, userId).has(permission);
}

function hasAnyOrgPermission(
  org: OrganizationFacts,
  userId: string,
  permissions: readonly OrgPermission[],
): boolean {
  const held = orgPermissionsOf(org, userId);
  return permissions.some((permission) => held.has(permission));
}

function teamRoleIn(team: TeamMembershipFacts | null | undefined): TeamRole | null {
  return team?.membership?.role ?? null;
}

function isAdminOrMember(team: TeamMembershipFacts | null | undefined): boolean {
  const role = teamRoleIn(team);
  return role === 'admin' || role === 'member';
}

/** The account permissions a user holds on one team account. */
export function teamAccountPermissions(
  org: OrganizationFacts | null,
  userId: string,
  team: TeamMembershipFacts,
): ReadonlySet<AccountPermission> {
  const granted = new Set<AccountPermission>();
  const role = teamRoleIn(team);
  if (role != null) TEAM_ROLE_PERMISSIONS[role].forEach((p) => granted.add(p));
  if (org != null) {
    if (isOrganizationOwner(org, userId)) return new Set(ACCOUNT_PERMISSIONS);
    const held = orgPermissionsOf(org, userId);
    for (const [orgPermission, grants] of Object.entries(ORG_PERMISSION_TEAM_GRANTS)) {
      if (held.has(orgPermission as OrgPermission)) grants.forEach((p) => granted.add(p));
    }
  }
  return granted;
}

/**
 * Creating links in an organization: the supervisor permission, or team admin or member
 * status in the team the link goes to (any team when `team` is omitted).
 */
export function canCreateLinksInOrganization(
  org: OrganizationFacts,
  userId: string,
  team?: TeamMembershipFacts | null,
): boolean {
  if (hasOrgPermission(org, userId, 'supervisor')) return true;
  return team === undefined ? org.teams.some(isAdminOrMember) : isAdminOrMember(team);
}

/** Creating a team needs the teams permission or ownership. */
export function canCreateTeam(org: OrganizationFacts, userId: string): boolean {
  return hasOrgPermission(org, userId, 'teams');
}

export function canReOnboard(org: OrganizationFacts, userId: string): boolean {
  const held = orgPermissionsOf(org, userId);
  return REONBOARDING_PERMISSIONS.every((permission) => held.has(permission));
}

export function canSeeOrganizationSettings(org: OrganizationFacts, userId: string): boolean {
  return hasAnyOrgPermission(org, userId, ORG_SETTINGS_PERMISSIONS);
}

/** The team settings links shown; team admins see team settings too. */
export function visibleTeamSettingsLinks(
  org: OrganizationFacts,
  userId: string,
): readonly (typeof TEAM_SETTINGS_LINKS)[number][] {
  const held = orgPermissionsOf(org, userId);
  return TEAM_SETTINGS_LINKS.filter((link) => held.has(link.permission));
}

export function canSeeTeamSettings(org: OrganizationFacts, userId: string): boolean {
  return (
    visibleTeamSettingsLinks(org, userId).length > 0 ||
    org.teams.some((team) => teamRoleIn(team) === 'admin')
  );
}

/** The personal workspace: an org owner, an org user, or a team admin/member in any team. */
export function canReachPersonalWorkspace(org: OrganizationFacts, userId: string): boolean {
  return isOrganizationOwner(org, userId) || org.role != null || org.teams.some(isAdminOrMember);
}

/** The audit item: organization owners or holders of 'audit'. */
export function canSeeAuditItem(org: OrganizationFacts, userId: string): boolean {
  return hasOrgPermission(org, userId, 'audit');
}

/** Team choice in the create form: viewers are locked out unless they hold 'teams'. */
export function teamChoice(
  org: OrganizationFacts,
  userId: string,
  team: TeamMembershipFacts,
): { disabled: boolean; labelSuffix: string | null } {
  const viewerOnly = teamRoleIn(team) === 'viewer' && !hasOrgPermission(org, userId, 'teams');
  return { disabled: viewerOnly, labelSuffix: viewerOnly ? VIEWER_ONLY_SUFFIX : null };
}

export type OrganizationLanding =
  { route: 'org.dashboard' } | { route: 'org.me' } | { route: 'org.team'; teamSlug: string } | null;

/**
 * Organization landing: owners and supervisors to the dashboard, users with a role to
 * org.me, others to their first team; null when there is nowhere to go.
 */
export function organizationLanding(org: OrganizationFacts, userId: string): OrganizationLanding {
  if (hasOrgPermission(org, userId, 'supervisor')) return { route: 'org.dashboard' };
  if (org.role != null) return { route: 'org.me' };
  const firstTeam = org.teams.find((team) => team.membership != null);
  return firstTeam ? { route: 'org.team', teamSlug: firstTeam.slug } : null;
}
