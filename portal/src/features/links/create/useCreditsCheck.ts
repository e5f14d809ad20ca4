import { checkCredits, NOT_ENOUGH_CREDITS_MESSAGE } from '@shortlane/shared/credits.ts';
import { useAccountLimitsQuery } from '../../../data/account-limits-query.ts';
import { useDialogs } from '../../../lib/servicesContext.ts';
import { useAppState } from '../../../state/appState.ts';

export type CreditsVerdict = { go: true } | { go: false; error: string | null };

/** The operation whose credit cost creating one link spends (public.operation_costs). */
export const CREATE_LINK_OPERATION = 'create_link';

/**
 * The credits check before a costly operation (app-shell 5): with a credit limit and a cost, the
 * remaining credits must cover it ('Not enough credits for this operation'), and a confirmation
 * states how many credits will be used. Without a limit, a cost or the limits data, nothing is
 * asked: the server still judges.
 */
export function useCreditsCheck(accountId: string | null, operation = CREATE_LINK_OPERATION) {
  const { operationCosts } = useAppState();
  const dialogs = useDialogs();
  const limits = useAccountLimitsQuery(accountId);
  return async (): Promise<CreditsVerdict> => {
    const cost = operationCosts[operation] ?? 0;
    const credits = limits.data?.max_web_credits;
    if (!credits || credits.limit == null || cost <= 0) return { go: true };
    const check = checkCredits(
      { limit: { web: credits.limit }, used: { web: credits.used } },
      cost,
    );
    if (!check.ok) return { go: false, error: NOT_ENOUGH_CREDITS_MESSAGE };
    const noun = check.creditsToUse === 1 ? 'credit' : 'credits';
    const confirmed = await dialogs.confirm({
      title: 'Use credits',
      messageHtml: `<strong>${check.creditsToUse} ${noun}</strong> will be used (${check.remaining} left).`,
      confirmLabel: 'Continue',
    });
    return confirmed ? { go: true } : { go: false, error: null };
  };
}
