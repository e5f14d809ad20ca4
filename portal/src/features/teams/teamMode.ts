import { MESSAGES } from '@shortlane/shared/messages.ts';
import { ApiError } from '../../data/unwrap.ts';
import type { TeamSummary } from '../../data/teams-query.ts';
import { href, paths } from '../../routes/paths.ts';

/**
 * Team mode (app-shell 4 and 6, link-creation 5) as pure rules: when it is on, whose features
 * apply, what the switch modal says, where a switch leads and what a failed switch shows.
 */

export interface TeamModeFacts {
  loggedIn: boolean;
  /** The stored toggle (profiles.team_mode). */
  stored: boolean;
  teamsAllowed: boolean;
  teams: readonly TeamSummary[];
  /** profiles.current_team_id. */
  currentTeamId: string | null;
}

/** The team worked in: on only when logged in, teams are allowed and the user has that team. */
export function activeTeam(facts: TeamModeFacts): TeamSummary | null {
  if (!facts.loggedIn || !facts.stored || !facts.teamsAllowed || facts.teams.length === 0) {
    return null;
  }
  return facts.teams.find((team) => team.id === facts.currentTeamId) ?? null;
}

/** Team features in team mode, the user's otherwise (app-shell 6). */
export function effectiveFeatures(
  team: TeamSummary | null,
  teamFeatures: readonly string[] | null,
  personalFeatures: readonly string[],
): readonly string[] {
  return team && teamFeatures ? teamFeatures : personalFeatures;
}

/** The confirmation modal's sentence (link-creation 5); null target: back to the account. */
export function switchConfirmation(target: Pick<TeamSummary, 'name'> | null): string {
  return target
    ? `You are going to switch to team ${target.name}.`
    : 'You are going to switch to your account.';
}

/** The settings of a team: its profile page. */
export function teamSettingsPath(team: Pick<TeamSummary, 'orgSlug' | 'slug'>): string {
  return href('team.profile', { org: team.orgSlug, team: team.slug });
}

/** Team settings live under /app/organization/{org}/team/{team}/… (not /app/organizations). */
export function isTeamSettingsPath(pathname: string): boolean {
  return pathname.startsWith(`${paths.homepage}/organization/`);
}

/**
 * Where a successful switch goes: into a team, that team's settings; out of team mode, user
 * settings when the user was on team settings, else nowhere (they stay on the page).
 */
export function switchDestination(
  target: Pick<TeamSummary, 'orgSlug' | 'slug'> | null,
  pathname: string,
): string | null {
  if (target) return teamSettingsPath(target);
  return isTeamSettingsPath(pathname) ? paths['settings.profile'] : null;
}

export type SwitchFailure =
  /** 424: the team wants its own sign-in first. */
  { kind: 'teamLogin'; to: string } | { kind: 'notice'; message: string; to: string };

/**
 * A failed switch (app-shell 5 and 8): 424 sends the browser to the team login path; otherwise
 * 'Team required.', 'Unknown team.' or 'Switching error.', on the settings teams page.
 */
export function switchFailure(
  error: unknown,
  target: Pick<TeamSummary, 'orgSlug' | 'slug'> | null,
): SwitchFailure {
  const to = paths['settings.teams'];
  if (error instanceof ApiError) {
    if (error.status === 424 && target) {
      return { kind: 'teamLogin', to: teamLoginPath(target) };
    }
    const code = (error.body as { message?: unknown } | null)?.message;
    if (code === 'team_required') return { kind: 'notice', message: MESSAGES.teamRequired, to };
    if (code === 'unknown_team') return { kind: 'notice', message: MESSAGES.unknownTeam, to };
  }
  return { kind: 'notice', message: MESSAGES.switchingError, to };
}

/** The team's own sign-in (single sign-on): its sso page. */
export function teamLoginPath(team: Pick<TeamSummary, 'orgSlug' | 'slug'>): string {
  return href('team.sso', { org: team.orgSlug, team: team.slug });
}
