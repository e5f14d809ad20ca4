import type { LinkListScope } from '../../../data/links-list-query.ts';

/**
 * The organization's link pages (link-creation 4 and 7): org.dashboard lists every link made in
 * the organization, org.me the user's personal links made there, org.team one team's links.
 */
export type OrganizationListPage =
  { kind: 'dashboard' } | { kind: 'me' } | { kind: 'team'; teamAccountId: string };

/** What the page lists, once the organization (and the user's personal account) are known. */
export function organizationListScope(
  page: OrganizationListPage,
  organizationId: string,
  personalAccountId: string,
): LinkListScope {
  if (page.kind === 'dashboard') return { organizationId };
  if (page.kind === 'me') return { accountId: personalAccountId, organizationId };
  return { accountId: page.teamAccountId };
}

/**
 * The add-to-list rule for a link just created on one of these pages: org.dashboard always
 * takes it; org.me only when it went to the personal workspace (no team); org.team only when it
 * went to that page's team.
 */
export function acceptsCreatedLink(
  page: OrganizationListPage,
  createdInTeamAccountId: string | null,
): boolean {
  if (page.kind === 'dashboard') return true;
  if (page.kind === 'me') return createdInTeamAccountId == null;
  return createdInTeamAccountId === page.teamAccountId;
}
