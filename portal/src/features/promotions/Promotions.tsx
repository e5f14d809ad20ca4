import { Box, Button, CloseButton, Group, Text } from '@mantine/core';
import { BLACK_FRIDAY_2024_COUPON } from '@shortlane/shared/sale-calendar.ts';
import { lazy, useState } from 'react';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import { Link, useLocation } from 'react-router-dom';
import { useSurveyPending } from '../../layout/surveyRules.ts';
import { isQuietPage } from './quietPages.ts';
import { SALE_PRICING_PATH } from './salePricingPath.ts';
import { SALE_PHASE_NAMES } from './salePhases.ts';
import { usePromotions, type Promotions as PromotionState } from './usePromotions.ts';

// A promotion modal opens on a few page views a session: its code comes when one does.
const PromotionModal = lazy(() =>
  import('./PromotionModals.tsx').then((module) => ({ default: module.PromotionModal })),
);

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
      <LazyOnFirstUse active={modal != null} fallback={null}>
        {modal && <PromotionModal kind={modal} promotions={promotions} />}
      </LazyOnFirstUse>
    </>
  );
}
