/**
 * Feature flags (app-shell section 6): which features apply where. A "feature holder" is a
 * user, team or organization carrying a list of feature names from its plan.
 */

export const FEATURES = [
  'download_logs',
  'redirect_routes',
  'use_branded_domains',
  'purchase_branded_domains',
  'add_branded_domains',
  'add_vanity_subdomains',
  'use_custom_alias',
  'use_tags',
  'use_api',
  'domain_root_redirect',
  'domain_404_redirect',
  'create_tiny_url',
  'update_tiny_url',
  'use_bulk',
  'use_analytics',
  'manage_expiration',
  'archive_tiny_url',
  'delete_tiny_url',
  'change_long_url',
  'share_analytics',
  /** Held by the user only: may create organizations and teams. */
  'support_teams',
] as const;
export type Feature = (typeof FEATURES)[number];

/** In organizations these are checked against the organization's or a team's features. */
export const ORGANIZATION_GATED_FEATURES = [
  'change_long_url',
  'use_tags',
  'manage_expiration',
  'redirect_routes',
  'archive_tiny_url',
  'delete_tiny_url',
  'share_analytics',
  'download_logs',
] as const satisfies readonly Feature[];
export type OrganizationGatedFeature = (typeof ORGANIZATION_GATED_FEATURES)[number];

export interface FeatureHolder {
  features: readonly string[];
}

export function isFeature(value: string): value is Feature {
  return (FEATURES as readonly string[]).includes(value);
}

export function isOrganizationGatedFeature(feature: Feature): feature is OrganizationGatedFeature {
  return (ORGANIZATION_GATED_FEATURES as readonly Feature[]).includes(feature);
}

export function hasFeature(holder: FeatureHolder | null | undefined, feature: Feature): boolean {
  return holder != null && holder.features.includes(feature);
}

/** Team mode is on only when logged in, teams are allowed and the user has a team. */
export function isTeamModeAvailable(input: {
  loggedIn: boolean;
  teamsAllowed: boolean;
  teamCount: number;
}): boolean {
  return input.loggedIn && input.teamsAllowed && input.teamCount > 0;
}

/** Where a feature is looked up. */
export type FeatureContext =
  | {
      kind: 'personal';
      user: FeatureHolder | null;
      /** The team whose features apply while team mode is on; null outside team mode. */
      teamModeTeam: FeatureHolder | null;
    }
  | {
      kind: 'organization';
      user: FeatureHolder;
      organization: FeatureHolder;
      /** The selected team; null for the personal workspace inside the organization. */
      team: FeatureHolder | null;
    };

/**
 * Team features in team mode, otherwise the user's. Inside an organization the gated
 * features come from the selected team, or from the organization for the personal workspace
 * ("expiry and tags are checked per team").
 */
export function featureHolderFor(context: FeatureContext, feature: Feature): FeatureHolder | null {
  if (context.kind === 'organization') {
    if (!isOrganizationGatedFeature(feature)) return context.user;
    return context.team ?? context.organization;
  }
  return context.teamModeTeam ?? context.user;
}

export function can(context: FeatureContext, feature: Feature): boolean {
  return hasFeature(featureHolderFor(context, feature), feature);
}

/** Bulk creation needs create plus bulk. */
export function canBulkCreate(context: FeatureContext): boolean {
  return can(context, 'create_tiny_url') && can(context, 'use_bulk');
}
