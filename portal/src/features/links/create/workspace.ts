import { VIEWER_ONLY_SUFFIX } from '@shortlane/shared/permissions.ts';
import type { LinkWorkspace } from '../../../data/links-create-mutation.ts';
import { STANDALONE_TEAM_ORG, type TeamSummary } from '../../../data/teams-query.ts';

/** The create form's three places (contracts: `mode="home"|"popover"|"organization"`). */
export type CreateFormMode = 'home' | 'popover' | 'organization';

/** The value of the "personal workspace" team choice. */
export const PERSONAL_TEAM = '';

export interface TeamOption {
  /** The team's id, or PERSONAL_TEAM. */
  value: string;
  label: string;
  disabled: boolean;
}

/** The organization the form works in (organization mode). */
export interface OrganizationScope {
  slug: string;
  /** The organization's account (its domains' owner). */
  accountId: string;
  /** Holds the 'teams' authorization: viewers' teams stay choosable (link-creation 5). */
  canManageTeams: boolean;
}

/** Teams the form may offer: in organization mode only that organization's. */
export function teamsInScope(
  teams: readonly TeamSummary[],
  organization: OrganizationScope | null,
): TeamSummary[] {
  return organization ? teams.filter((team) => team.orgSlug === organization.slug) : [...teams];
}

/**
 * The team choice: the personal workspace first, then each team by name; a team where the user
 * is a viewer is disabled and labelled '(Viewer Access Only)' unless they hold 'teams'.
 */
export function teamOptions(
  teams: readonly TeamSummary[],
  organization: OrganizationScope | null,
): TeamOption[] {
  const personal: TeamOption = { value: PERSONAL_TEAM, label: 'Personal', disabled: false };
  const sorted = teamsInScope(teams, organization).sort((a, b) => a.name.localeCompare(b.name));
  return [
    personal,
    ...sorted.map((team) => {
      const viewerOnly = team.role === 'viewer' && !(organization?.canManageTeams ?? false);
      return {
        value: team.id,
        label: viewerOnly ? `${team.name} ${VIEWER_ONLY_SUFFIX}` : team.name,
        disabled: viewerOnly,
      };
    }),
  ];
}

/** Where the link goes for a team choice (a team id or PERSONAL_TEAM). */
export function workspaceFor(
  teamId: string,
  teams: readonly TeamSummary[],
  organization: OrganizationScope | null,
): LinkWorkspace {
  const team = teams.find((candidate) => candidate.id === teamId);
  if (!team) {
    return organization
      ? { kind: 'organization-personal', organization: organization.slug }
      : { kind: 'own', team: null };
  }
  return team.orgSlug === STANDALONE_TEAM_ORG
    ? { kind: 'own', team: team.slug }
    : { kind: 'organization-team', organization: team.orgSlug, team: team.slug };
}
