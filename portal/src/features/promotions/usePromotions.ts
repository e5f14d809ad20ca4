import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { promotionModalToShow, type PromotionModal } from '@shortlane/shared/promotions.ts';
import {
  isSaleBannerVisible,
  salePhaseAt,
  type SalePhase,
} from '@shortlane/shared/sale-calendar.ts';
import { remainingTrialDays } from '@shortlane/shared/subscriptions.ts';
import {
  isTrialPromotionVisible,
  isTrialReminderVisible,
  trialReminder,
  trialsAllowed,
  type TrialReminder,
} from '@shortlane/shared/trial.ts';
import { useBillingCustomerQuery } from '../../data/billing-documents/billing-customer-query.ts';
import { usePlansQuery } from '../../data/plans-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useSubscriptionsQuery } from '../../data/subscriptions-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { useAppState } from '../../state/appState.ts';
import { useSessionFlag } from '../../state/sessionFlag.ts';
import { useStoredFlag } from '../../state/storedFlag.ts';
import { useClosureTime } from './closureTime.ts';

export interface Promotions {
  /** The sale phase running now, when its banner shows to this viewer. */
  salePhase: SalePhase | null;
  /** Hides the sale banner and modal for good ("Not interested"). */
  closeSale: () => void;
  /** Closes the sale modal for this session; the banner stays. */
  closeSaleModal: () => void;
  /** The longest free trial a plan offers, when the free-trial promotion shows. */
  trialDays: number | null;
  closeTrialPromotion: () => void;
  reminder: { kind: TrialReminder; daysLeft: number; planName: string } | null;
  closeReminder: () => void;
  /** The one promotion modal to open now, if any. */
  modal: PromotionModal | null;
}

/**
 * Who sees which promotion (app-shell 4): the Black Friday / Cyber Monday sale for unsubscribed
 * visitors during its phases until closed; the free-trial promotion while trials are allowed
 * and it was not closed in the last 24 hours; the trial reminders for a trial without a card.
 */
export function usePromotions(now: Date = new Date()): Promotions {
  const config = useConfig();
  const { viewer, status } = useAppState();
  const profile = useProfileQuery();
  const accountId = profile.data?.personal_account_id ?? null;
  const subscriptions = useSubscriptionsQuery(accountId);
  const plans = usePlansQuery();
  const current = viewer?.subscriber.subscriptions.current ?? null;
  const onTrial =
    current != null &&
    trialReminder({ subscription: current, hasPaymentMethod: false, now }) != null;
  // The card on file is only asked for when a reminder could be due.
  const customer = useBillingCustomerQuery(onTrial ? accountId : null);

  const [saleClosed, setSaleClosed] = useStoredFlag(STORAGE_KEYS.salePromotionClosed, false);
  const [saleModalClosed, setSaleModalClosed] = useSessionFlag(STORAGE_KEYS.saleModalClosed, false);
  const [promotionClosedAt, closeTrialPromotion] = useClosureTime(
    STORAGE_KEYS.trialPromotionClosedAt,
    'local',
  );
  const [hardClosedAt, closeHard] = useClosureTime(STORAGE_KEYS.trialReminderClosedAt, 'session');
  const [softClosedAt, closeSoft] = useClosureTime(STORAGE_KEYS.trialReminderClosedAt, 'local');

  const ready = status === 'ready';
  const bannerVisible =
    ready &&
    isSaleBannerVisible({
      subscribed: viewer?.subscribed ?? false,
      promotionClosed: saleClosed,
      now,
      calendar: config.saleCalendar,
    });
  // The modal opens by itself for signed-in visitors, until closed in this session.
  const saleModalVisible = bannerVisible && viewer != null && !saleModalClosed;

  const offered = (plans.data ?? []).filter((plan) => plan.trial_available && plan.trial_days > 0);
  const trialPromotionVisible =
    ready &&
    subscriptions.isSuccess &&
    isTrialPromotionVisible({
      trialsAllowed: trialsAllowed({
        signedIn: viewer != null,
        subscribed: viewer?.subscribed ?? false,
        pastDue: viewer?.pastDue ?? false,
        planHistory: subscriptions.data.map((row) => row.name),
        plans: offered,
      }),
      closedAt: promotionClosedAt,
      now,
    });

  const kind =
    current != null && customer.isSuccess
      ? trialReminder({
          subscription: current,
          hasPaymentMethod: customer.data?.pm_last_four != null,
          now,
        })
      : null;
  const reminderVisible = isTrialReminderVisible({
    reminder: kind,
    closedAt: kind === 'hard' ? hardClosedAt : softClosedAt,
    now,
  });
  const reminder =
    kind != null && reminderVisible && current != null
      ? { kind, daysLeft: remainingTrialDays(current, now) ?? 0, planName: current.name }
      : null;

  return {
    salePhase: bannerVisible ? salePhaseAt(now, config.saleCalendar) : null,
    closeSale: () => setSaleClosed(true),
    closeSaleModal: () => setSaleModalClosed(true),
    trialDays: trialPromotionVisible ? Math.max(...offered.map((plan) => plan.trial_days)) : null,
    closeTrialPromotion,
    reminder,
    closeReminder: kind === 'hard' ? closeHard : closeSoft,
    modal: promotionModalToShow({
      reminder: reminder?.kind ?? null,
      saleVisible: saleModalVisible,
      trialPromotionVisible,
    }),
  };
}
