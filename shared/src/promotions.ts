/**
 * Which of the shell's promotion modals (app-shell 2 and 4) opens, when several would: at most one
 * at a time, so they never pile up over the page. The hard trial reminder comes first (the trial
 * ends within a day), then the sale (it lasts days), the free-trial promotion, the soft reminder.
 */
import type { TrialReminder } from './trial.ts';

export type PromotionModal = 'trial_reminder' | 'sale' | 'trial_promotion';

export function promotionModalToShow(input: {
  /** The reminder due and not closed recently, if any. */
  reminder: TrialReminder | null;
  saleVisible: boolean;
  trialPromotionVisible: boolean;
}): PromotionModal | null {
  if (input.reminder === 'hard') return 'trial_reminder';
  if (input.saleVisible) return 'sale';
  if (input.trialPromotionVisible) return 'trial_promotion';
  if (input.reminder === 'soft') return 'trial_reminder';
  return null;
}
