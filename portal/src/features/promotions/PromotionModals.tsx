import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { PromotionModal as PromotionModalKind } from '@shortlane/shared/promotions.ts';
import { BLACK_FRIDAY_2024_COUPON } from '@shortlane/shared/sale-calendar.ts';
import { Link } from 'react-router-dom';
import { paths } from '../../routes/paths.ts';
import { SALE_PRICING_PATH } from './salePricingPath.ts';
import { SALE_PHASE_NAMES } from './salePhases.ts';
import type { Promotions as PromotionState } from './usePromotions.ts';

function SaleModal({ promotions }: { promotions: PromotionState }) {
  const phase = promotions.salePhase;
  return (
    <Modal
      opened
      centered
      onClose={promotions.closeSaleModal}
      title={phase ? `${SALE_PHASE_NAMES[phase]} sale` : 'Sale'}
    >
      <Stack gap="md">
        <Text>
          Every yearly plan is on sale. The code <strong>{BLACK_FRIDAY_2024_COUPON}</strong> comes
          off your first year at checkout.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={promotions.closeSaleModal}>
            Maybe later
          </Button>
          <Button component={Link} to={SALE_PRICING_PATH} onClick={promotions.closeSaleModal}>
            See yearly plans
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TrialPromotionModal({ promotions }: { promotions: PromotionState }) {
  return (
    <Modal opened centered onClose={promotions.closeTrialPromotion} title="Try a paid plan free">
      <Stack gap="md">
        <Text>
          Branded domains, analytics, the API and more, free for {promotions.trialDays} days. Cancel
          any time before the trial ends and pay nothing.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={promotions.closeTrialPromotion}>
            Not now
          </Button>
          <Button
            component={Link}
            to={paths['signup.pricing']}
            onClick={promotions.closeTrialPromotion}
          >
            Start your free trial
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function daysText(days: number): string {
  return days <= 1 ? 'less than a day' : `${days} days`;
}

function TrialReminderModal({ promotions }: { promotions: PromotionState }) {
  const reminder = promotions.reminder;
  if (reminder == null) return null;
  const hard = reminder.kind === 'hard';
  return (
    <Modal
      opened
      centered
      onClose={promotions.closeReminder}
      title={hard ? 'Your trial ends within a day' : 'Your trial ends soon'}
    >
      <Stack gap="md" data-testid={`trial-reminder-${reminder.kind}`}>
        <Text>
          Your free trial has {daysText(reminder.daysLeft)} left. Add a card now to keep your plan
          when it ends; nothing is charged before then.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={promotions.closeReminder}>
            Remind me later
          </Button>
          {/* Not a closure: back from adding a card, the card itself ends the reminder. */}
          <Button component={Link} to={paths['settings.paymentMethod']}>
            Add a card
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The promotion modal of that kind (Promotions decides which, and when). */
export function PromotionModal({
  kind,
  promotions,
}: {
  kind: PromotionModalKind;
  promotions: PromotionState;
}) {
  if (kind === 'sale') return <SaleModal promotions={promotions} />;
  if (kind === 'trial_promotion') return <TrialPromotionModal promotions={promotions} />;
  return <TrialReminderModal promotions={promotions} />;
}
