import type { StatsPeriod } from '@shortlane/shared/constants.ts';
import {
  useAccountAnalyticsAccessQuery,
  useAccountAnalyticsQuery,
} from '../../data/link-analytics-query.ts';
import { effectivePeriod, useStatsPeriod } from './period.ts';

/**
 * An account's clicks over the stats period: the plan's periods are asked first, and the clicks
 * only over a period the plan covers, so a plan without analytics has no refused request behind
 * it. The dashboard's panel shows them; the dashboard route starts them early (its Prefetch).
 */
export function useAccountClicks(accountId: string | null) {
  const [chosen, setChosen] = useStatsPeriod();
  const access = useAccountAnalyticsAccessQuery(accountId);
  const allowed = access.data ?? null;
  const period: StatsPeriod | null =
    allowed != null && allowed.length > 0 ? effectivePeriod(chosen, allowed) : null;
  const report = useAccountAnalyticsQuery(accountId, period);
  return { chosen, setChosen, access, allowed, period, report };
}
