import type { OrgPermission } from '@shortlane/shared/permissions.ts';
import type { RouteName } from '../../../routes/paths.ts';

/**
 * The organization's team settings (app-shell 6): "Team settings permissions: teams, members,
 * domains, supervisor (links Teams, Members, Team Domains, API Tokens)". Who opens which page and
 * who changes things there; the database checks every write again.
 */
export type TeamSettingsRoute =
  | 'org.settings.teams'
  | 'org.settings.teams.members'
  | 'org.settings.teams.domains'
  | 'org.settings.teams.api';

export const TEAM_SETTINGS_PAGES: readonly {
  route: TeamSettingsRoute & RouteName;
  label: string;
  /** Any of these opens the page (the owner holds them all). */
  readers: readonly OrgPermission[];
}[] = [
  // Supervisors read the teams (they create links in any of them) but change none.
  { route: 'org.settings.teams', label: 'Teams', readers: ['teams', 'supervisor'] },
  // `teams` manages every team, its members included (app.org_role_team_permissions).
  {
    route: 'org.settings.teams.members',
    label: 'Members',
    readers: ['members', 'teams', 'supervisor'],
  },
  { route: 'org.settings.teams.domains', label: 'Team Domains', readers: ['domains'] },
  { route: 'org.settings.teams.api', label: 'API Tokens', readers: ['supervisor'] },
];

export function canOpenTeamSettings(
  route: TeamSettingsRoute,
  permissions: readonly OrgPermission[],
): boolean {
  const page = TEAM_SETTINGS_PAGES.find((candidate) => candidate.route === route);
  return page != null && page.readers.some((permission) => permissions.includes(permission));
}

/** Create, rename, archive and unarchive teams. */
export const canManageTeams = (permissions: readonly OrgPermission[]) =>
  permissions.includes('teams');

/** Add people to teams, change their team role, remove them. */
export const canManageTeamMembers = (permissions: readonly OrgPermission[]) =>
  permissions.includes('members') || permissions.includes('teams');
