import { Box, Button, CloseButton, Group, Modal, Stack, Text } from '@mantine/core';
import { BLACK_FRIDAY_2024_COUPON } from '@shortlane/shared/sale-calendar.ts';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSurveyPending } from '../../layout/surveyRules.ts';
import { paths } from '../../routes/paths.ts';
import { isQuietPage } from './quietPages.ts';
import { SALE_PHASE_NAMES } from './salePhases.ts';
import { usePromotions, type Promotions as PromotionState } from './usePromotions.ts';

/** Pricing with the sale coupon: the coupon is remembered (CouponMemory) and goes to checkout. */
export const SALE_PRICING_PATH = `${paths['signup.pricing']}?coupon=${BLACK_FRIDAY_2024_COUPON}`;

function SaleBanner({ promotions }: { promotions: PromotionState }) {
  const phase = promotions.salePhase;
  if (phase == null) return null;
  return (
    <Box component="aside" aria-label="Sale" bg="yellow.1" px="md" py="xs">
      <Group justify="space-between" gap="sm" maw="80rem" mx="auto" wrap="nowrap">
        <Text size="sm">
          <strong>{SALE_PHASE_NAMES[phase]}</strong>: our best price of the year on yearly plans
          with the code <strong>{BLACK_FRIDAY_2024_COUPON}</strong>.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" component={Link} to={SALE_PRICING_PATH}>
            Get the deal
          </Button>
          <CloseButton size="sm" aria-label="Hide the sale" onClick={promotions.closeSale} />
        </Group>
      </Group>
    </Box>
  );
}

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

/**
 * The shell's promotions (app-shell 2 and 4): the sale banner in the page's flow, and at most
 * one promotion modal, never on the pages where one would be in the way, nor while the onboarding
 * survey is about to open.
 */
export function Promotions() {
  const state = usePromotions();
  const { pathname } = useLocation();
  const surveyPending = useSurveyPending(pathname);
  // One modal per page view: closing one does not open the next in line until the next page.
  const [closedOn, setClosedOn] = useState<string | null>(null);
  const after = (close: () => void) => () => {
    setClosedOn(pathname);
    close();
  };
  const promotions: PromotionState = {
    ...state,
    closeSaleModal: after(state.closeSaleModal),
    closeTrialPromotion: after(state.closeTrialPromotion),
    closeReminder: after(state.closeReminder),
  };
  const modal =
    isQuietPage(pathname) || surveyPending || closedOn === pathname ? null : promotions.modal;
  return (
    <>
      <SaleBanner promotions={promotions} />
      {modal === 'sale' && <SaleModal promotions={promotions} />}
      {modal === 'trial_promotion' && <TrialPromotionModal promotions={promotions} />}
      {modal === 'trial_reminder' && <TrialReminderModal promotions={promotions} />}
    </>
  );
}
