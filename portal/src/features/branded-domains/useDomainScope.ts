import { useParams, useSearchParams } from 'react-router-dom';
import {
  useDomainAccountsQuery,
  type DomainAccount,
} from '../../data/branded-domains/accounts-query.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';

/** The query parameter naming the account whose domains a settings page shows. */
export const ACCOUNT_PARAM = 'account';

export type DomainScopeState =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  /** The user manages no domains here (no `domains` permission on any fitting account). */
  | { status: 'none' }
  | {
      status: 'ready';
      account: DomainAccount;
      /** The accounts the picker offers (settings pages: personal and teams). */
      choices: DomainAccount[];
      /** The link named an account the user cannot manage; `account` is the fallback. */
      fellBack: boolean;
    };

/**
 * Whose domains a page shows. Organization routes (org.settings.domains, …teams.domains) show
 * the organization's, for holders of its `domains` permission; the settings pages show the
 * personal workspace's or, with ?account=, a team's or an organization's the user manages.
 */
export function useDomainScope(): DomainScopeState {
  const route = useCurrentRouteName();
  const { org } = useParams();
  const [params] = useSearchParams();
  const accounts = useDomainAccountsQuery();
  if (accounts.isPending) return { status: 'loading' };
  if (accounts.isError) return { status: 'error', retry: () => void accounts.refetch() };

  if (route.startsWith('org.')) {
    const account = accounts.data.find(
      (candidate) => candidate.kind === 'organization' && candidate.organizationSlug === org,
    );
    return account
      ? { status: 'ready', account, choices: [account], fellBack: false }
      : {
          status: 'none',
        };
  }
  const choices = accounts.data.filter((account) => account.kind !== 'organization');
  const requested = params.get(ACCOUNT_PARAM);
  const named = requested ? accounts.data.find((account) => account.accountId === requested) : null;
  const account = named ?? choices[0];
  if (!account) return { status: 'none' };
  return {
    status: 'ready',
    account,
    choices,
    fellBack: requested != null && named == null,
  };
}

/** The query naming any account but the personal one, so links between the pages keep it. */
export function accountQuery(account: DomainAccount): Record<string, string> {
  return account.kind === 'personal' ? {} : { [ACCOUNT_PARAM]: account.accountId };
}

export function accountLabel(account: DomainAccount): string {
  if (account.kind === 'personal') return 'Personal workspace';
  return account.kind === 'team' ? `Team ${account.name}` : `Organization ${account.name}`;
}
