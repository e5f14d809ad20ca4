import type { OrganizationLanding } from '@shortlane/shared/permissions.ts';
import { href } from '../../routes/paths.ts';

/** The address of a landing (shared organizationLanding), or null when there is none. */
export function organizationLandingPath(
  orgSlug: string,
  landing: OrganizationLanding,
): string | null {
  if (landing === null) return null;
  if (landing.route === 'org.team')
    return href('org.team', { org: orgSlug, team: landing.teamSlug });
  return href(landing.route, { org: orgSlug });
}
