import { describe, expect, it } from 'vitest';
import type { TeamSummary } from '../../data/teams-query.ts';
import { ApiError } from '../../data/unwrap.ts';
import {
  activeTeam,
  effectiveFeatures,
  switchConfirmation,
  switchDestination,
  switchFailure,
  type TeamModeFacts,
} from './teamMode.ts';

const marketing: TeamSummary = {
  id: 't1',
  accountId: 'ta1',
  slug: 'marketing',
  name: 'Marketing',
  role: 'admin',
  orgSlug: 'acme',
};
const on: TeamModeFacts = {
  loggedIn: true,
  stored: true,
  teamsAllowed: true,
  teams: [marketing],
  currentTeamId: 't1',
};

const coded = (status: number, code: string) =>
  new ApiError(code, status, { code: `PT${status}`, message: code, details: null, hint: 'team' });

describe('team mode', () => {
  it('is on only when logged in, stored on, teams allowed and the team is one of the user’s', () => {
    expect(activeTeam(on)).toBe(marketing);
    expect(activeTeam({ ...on, loggedIn: false })).toBeNull();
    expect(activeTeam({ ...on, stored: false })).toBeNull();
    expect(activeTeam({ ...on, teamsAllowed: false })).toBeNull();
    expect(activeTeam({ ...on, teams: [] })).toBeNull();
    expect(activeTeam({ ...on, currentTeamId: 'gone' })).toBeNull();
  });

  it("uses the team's features in team mode and the user's otherwise", () => {
    expect(effectiveFeatures(marketing, ['use_tags'], ['use_api'])).toEqual(['use_tags']);
    expect(effectiveFeatures(null, ['use_tags'], ['use_api'])).toEqual(['use_api']);
    // Until (or unless) the team's features load, the user's stand.
    expect(effectiveFeatures(marketing, null, ['use_api'])).toEqual(['use_api']);
  });

  it('asks before switching, naming the team or the account', () => {
    expect(switchConfirmation(marketing)).toBe('You are going to switch to team Marketing.');
    expect(switchConfirmation(null)).toBe('You are going to switch to your account.');
  });

  it("goes to the team's settings; leaving on team settings returns to user settings", () => {
    expect(switchDestination(marketing, '/app/dashboard')).toBe(
      '/app/organization/acme/team/marketing/profile',
    );
    expect(switchDestination(null, '/app/organization/acme/team/marketing/membership')).toBe(
      '/app/settings/profile',
    );
    expect(switchDestination(null, '/app/organizations/acme/dashboard')).toBeNull();
    expect(switchDestination(null, '/app/dashboard')).toBeNull();
  });

  it('maps a failed switch to the spec: 424 to the team login, else a message on settings teams', () => {
    expect(switchFailure(coded(424, 'team_login_required'), marketing)).toEqual({
      kind: 'teamLogin',
      to: '/app/organization/acme/team/marketing/sso',
    });
    expect(switchFailure(coded(422, 'team_required'), null)).toEqual({
      kind: 'notice',
      message: 'Team required.',
      to: '/app/settings/teams',
    });
    expect(switchFailure(coded(404, 'unknown_team'), marketing)).toEqual({
      kind: 'notice',
      message: 'Unknown team.',
      to: '/app/settings/teams',
    });
    expect(switchFailure(new TypeError('Failed to fetch'), marketing)).toEqual({
      kind: 'notice',
      message: 'Switching error.',
      to: '/app/settings/teams',
    });
  });
});
