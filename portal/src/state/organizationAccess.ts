/**
 * Who reaches the organization pages (issue 16's rollout switch, in place of the spec's
 * developer flag): staff, users with the `organizations` preview feature, and anyone who belongs
 * to an organization (owner, organization user, or member of one of its teams). The kiosk stays
 * staff-only; the data itself is guarded by RLS whatever this says.
 */
export const ORGANIZATIONS_PREVIEW = 'organizations';

export interface OrganizationAccessFacts {
  isDeveloper: boolean;
  previewFeatures: readonly string[];
  /** Organizations the user owns or is an organization user of. */
  organizationCount: number;
  /** Whether one of the user's teams belongs to an organization. */
  inOrganizationTeam: boolean;
}

export function reachesOrganizations(facts: OrganizationAccessFacts): boolean {
  return (
    facts.isDeveloper ||
    facts.previewFeatures.includes(ORGANIZATIONS_PREVIEW) ||
    facts.organizationCount > 0 ||
    facts.inOrganizationTeam
  );
}
