import { describe, expect, it } from 'vitest';
import type { FeatureContext, FeatureHolder } from './features.ts';
import {
  can,
  canBulkCreate,
  FEATURES,
  hasFeature,
  isFeature,
  isTeamModeAvailable,
  ORGANIZATION_GATED_FEATURES,
} from './features.ts';

const holder = (...features: string[]): FeatureHolder => ({ features });

describe('feature flags (app-shell 6)', () => {
  it('names the spec feature flags', () => {
    expect(FEATURES).toHaveLength(21);
    expect(isFeature('use_bulk')).toBe(true);
    expect(isFeature('support_teams')).toBe(true);
    expect(isFeature('use_webhooks')).toBe(false);
    expect(ORGANIZATION_GATED_FEATURES).toEqual([
      'change_long_url',
      'use_tags',
      'manage_expiration',
      'redirect_routes',
      'archive_tiny_url',
      'delete_tiny_url',
      'share_analytics',
      'download_logs',
    ]);
  });

  it('finds a feature only on a holder that lists it', () => {
    expect(hasFeature(holder('use_tags'), 'use_tags')).toBe(true);
    expect(hasFeature(holder('use_tags'), 'use_api')).toBe(false);
    expect(hasFeature(null, 'use_tags')).toBe(false);
  });

  it('turns team mode on only when logged in, teams allowed and at least one team', () => {
    expect(isTeamModeAvailable({ loggedIn: true, teamsAllowed: true, teamCount: 1 })).toBe(true);
    expect(isTeamModeAvailable({ loggedIn: false, teamsAllowed: true, teamCount: 1 })).toBe(false);
    expect(isTeamModeAvailable({ loggedIn: true, teamsAllowed: false, teamCount: 1 })).toBe(false);
    expect(isTeamModeAvailable({ loggedIn: true, teamsAllowed: true, teamCount: 0 })).toBe(false);
  });

  it("uses the team's features in team mode, otherwise the user's", () => {
    const user = holder('use_tags');
    const team = holder('use_api');
    expect(can({ kind: 'personal', user, teamModeTeam: null }, 'use_tags')).toBe(true);
    expect(can({ kind: 'personal', user, teamModeTeam: null }, 'use_api')).toBe(false);
    expect(can({ kind: 'personal', user, teamModeTeam: team }, 'use_api')).toBe(true);
    expect(can({ kind: 'personal', user, teamModeTeam: team }, 'use_tags')).toBe(false);
    expect(can({ kind: 'personal', user: null, teamModeTeam: null }, 'use_tags')).toBe(false);
  });

  it("checks organization gates against the selected team's features, else the organization's", () => {
    const user = holder('use_tags', 'manage_expiration', 'use_custom_alias');
    const organization = holder('use_tags');
    const team = holder('manage_expiration');
    const personal: FeatureContext = { kind: 'organization', user, organization, team: null };
    const inTeam: FeatureContext = { kind: 'organization', user, organization, team };
    expect(can(personal, 'use_tags')).toBe(true);
    expect(can(personal, 'manage_expiration')).toBe(false);
    expect(can(inTeam, 'manage_expiration')).toBe(true);
    expect(can(inTeam, 'use_tags')).toBe(false);
    // Not an organization gate: still the user's own feature.
    expect(can(inTeam, 'use_custom_alias')).toBe(true);
  });

  it('allows bulk creation only with create plus bulk', () => {
    const context = (...features: string[]): FeatureContext => ({
      kind: 'personal',
      user: holder(...features),
      teamModeTeam: null,
    });
    expect(canBulkCreate(context('create_tiny_url', 'use_bulk'))).toBe(true);
    expect(canBulkCreate(context('use_bulk'))).toBe(false);
    expect(canBulkCreate(context('create_tiny_url'))).toBe(false);
  });
});
