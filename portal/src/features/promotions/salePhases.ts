import type { SalePhase } from '@shortlane/shared/sale-calendar.ts';

/** How the sale's phases are named to customers. */
export const SALE_PHASE_NAMES: Record<SalePhase, string> = {
  pre_sale: 'Early access',
  black_friday: 'Black Friday',
  post_black_friday: 'Weekend deals',
  cyber_monday: 'Cyber Monday',
};
