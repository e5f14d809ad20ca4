import type { DomainOption } from '@shortlane/shared/domains.ts';
import type { CreateFormDomainRow } from '../../../data/links-create-domains-query.ts';

/**
 * The accounts whose domains a workspace may use: its own (personal or team account, for
 * branded domains) and, inside an organization, the organization's (organization domains,
 * filtered by team through shared's domainChoices).
 */
export interface WorkspaceAccounts {
  /** The account the link goes to; null while unknown (guests, or still loading). */
  accountId: string | null;
  organizationAccountId: string | null;
}

/**
 * The create form's domain options for a workspace, in the spec's Domain option shape: common
 * domains always; branded domains of the workspace's own account; organization domains of the
 * workspace's organization. Branded domains count as "common" options (they carry no team list).
 */
export function domainOptionsFor(
  rows: readonly CreateFormDomainRow[],
  workspace: WorkspaceAccounts,
): DomainOption[] {
  return rows.flatMap((row): DomainOption[] => {
    const usable =
      row.kind === 'common' ||
      (row.kind === 'branded' &&
        row.account_id != null &&
        row.account_id === workspace.accountId) ||
      (row.kind === 'organization' &&
        row.account_id != null &&
        row.account_id === workspace.organizationAccountId);
    if (!usable) return [];
    const option: DomainOption = {
      domain: row.domain,
      type: row.kind === 'organization' ? 'organization' : 'common',
      isDisabled: row.is_disabled,
      isDeleted: false,
      isBlocked: row.is_blocked,
      requireEmailVerification: row.require_email_verification,
      subscribedOnly: row.subscribed_only,
      allowForGuests: row.allow_for_guests,
      guestCanUseCustomAlias: row.guest_can_use_custom_alias,
    };
    if (row.kind !== 'organization') return [option];
    const teams = row.domain_teams.flatMap((link) => (link.team ? [{ slug: link.team.slug }] : []));
    return [{ ...option, for_all_teams: row.for_all_teams, teams }];
  });
}
