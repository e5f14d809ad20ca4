import { describe, expect, it } from 'vitest';
import {
  canManageTeamMembers,
  canManageTeams,
  canOpenTeamSettings,
  TEAM_SETTINGS_PAGES,
} from './teamSettings.ts';

const opens = (permissions: Parameters<typeof canOpenTeamSettings>[1]) =>
  TEAM_SETTINGS_PAGES.filter((page) => canOpenTeamSettings(page.route, permissions)).map(
    (page) => page.label,
  );

describe('team settings permissions (app-shell 6)', () => {
  it('links Teams, Members, Team Domains and API Tokens to teams, members, domains and supervisor', () => {
    expect(opens(['teams'])).toEqual(['Teams', 'Members']);
    expect(opens(['members'])).toEqual(['Members']);
    expect(opens(['domains'])).toEqual(['Team Domains']);
    expect(opens(['supervisor'])).toEqual(['Teams', 'Members', 'API Tokens']);
    expect(opens(['audit', 'users', 'roles', 'profile', 'sso', 'subscriptions'])).toEqual([]);
  });

  it('teams manages teams and their members; members only members; supervisor neither', () => {
    expect([canManageTeams(['teams']), canManageTeamMembers(['teams'])]).toEqual([true, true]);
    expect([canManageTeams(['members']), canManageTeamMembers(['members'])]).toEqual([false, true]);
    expect([canManageTeams(['supervisor']), canManageTeamMembers(['supervisor'])]).toEqual([
      false,
      false,
    ]);
  });
});
