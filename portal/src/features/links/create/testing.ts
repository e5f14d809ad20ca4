import type { CreateFormDomainRow } from '../../../data/links-create-domains-query.ts';

/** A domain row as the create form's query reads it: a common domain, open to signed-in users. */
export function domainRow(
  domain: string,
  overrides: Partial<CreateFormDomainRow> = {},
): CreateFormDomainRow {
  return {
    domain,
    kind: 'common',
    account_id: null,
    is_disabled: false,
    is_blocked: false,
    require_email_verification: false,
    subscribed_only: false,
    allow_for_guests: false,
    guest_can_use_custom_alias: false,
    for_all_teams: true,
    domain_teams: [],
    ...overrides,
  };
}
