import { shouldShowPlanLimitModal } from '@shortlane/shared/credits.ts';
import { useAccountLimitsQuery } from '../../../data/account-limits-query.ts';
import { useProfileQuery } from '../../../data/profile-query.ts';

/**
 * Whether the signed-in user's personal workspace reached its active-alias limit without usable
 * overage (link-creation 4); false for guests and until the limits data is known.
 */
export function usePlanLimitReached(): boolean {
  const profile = useProfileQuery();
  const limits = useAccountLimitsQuery(profile.data?.personal_account_id);
  return limits.data != null && shouldShowPlanLimitModal(limits.data);
}
