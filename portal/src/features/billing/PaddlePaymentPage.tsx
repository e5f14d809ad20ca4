import { Alert, Button, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { getPaddleInstance, type PaddleEventData } from '@paddle/paddle-js';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PAYMENT_DECLINED_MESSAGE } from '../../data/billing.ts';
import { loadPaddle } from '../../lib/paddle.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { paddleFlowTargets } from './paddleFlow.ts';
import { useAppState } from '../../state/appState.ts';
import { useStoredFlag } from '../../state/storedFlag.ts';

type Stage = 'opening' | 'open' | 'failed' | 'unavailable';

/**
 * /paddle/payment: billing type 2's payment link (`?_ptxn=<transaction id>`, what Paddle calls
 * the default payment link). Paddle.js opens its overlay checkout for the transaction; a
 * completed purchase goes to its scope's subscription success page with the transaction as its
 * session id, where the page waits for the webhook; an invoice payment and a payment-method
 * update go where paddleFlowTargets says; a declined card shows the spec's message (and skips
 * the onboarding survey). A checkout error is only logged (app-shell 4, Subscribe).
 */
export default function PaddlePaymentPage() {
  usePageTitle('Payment');
  const [params] = useSearchParams();
  const transactionId = params.get('_ptxn');
  const { paddle: config } = useConfig();
  const { locale } = useAppState();
  const navigate = useNavigate();
  const [, setSurveySkipped] = useStoredFlag(STORAGE_KEYS.surveySkipped, false);
  const [stage, setStage] = useState<Stage>('opening');
  const [declined, setDeclined] = useState(false);
  const completed = useRef(false);

  useEffect(() => {
    if (!transactionId) return;
    const onEvent = (event: PaddleEventData) => {
      switch (event.name) {
        case 'checkout.loaded':
          setStage('open');
          break;
        case 'checkout.payment.failed':
          setDeclined(true);
          setSurveySkipped(true);
          break;
        case 'checkout.completed':
          completed.current = true;
          // The overlay stays over the page until closed; the next page takes over from here.
          getPaddleInstance()?.Checkout.close();
          void navigate(
            paddleFlowTargets(params, event.data?.transaction_id ?? transactionId).completed,
          );
          break;
        case 'checkout.closed':
          if (!completed.current) void navigate(paddleFlowTargets(params, transactionId).closed);
          break;
        case 'checkout.error':
        case 'checkout.payment.error':
          console.error('Paddle checkout error', event);
          break;
      }
    };
    loadPaddle(config, { locale, transactionId, eventCallback: onEvent }).catch(
      (error: unknown) => {
        console.error('Paddle.js could not be loaded', error);
        setStage('unavailable');
      },
    );
  }, [config, locale, navigate, params, setSurveySkipped, transactionId]);

  if (!transactionId) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" role="alert" title="There is no payment to open here">
          <Button component={Link} to={paths['signup.pricing']} mt="sm" size="xs">
            See plans
          </Button>
        </Alert>
      </Container>
    );
  }

  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Payment</Title>
        {declined && (
          <Alert color="red" role="alert" data-testid="payment-declined">
            {PAYMENT_DECLINED_MESSAGE}
          </Alert>
        )}
        {stage === 'opening' && (
          <Stack gap="xs" align="flex-start">
            <Loader size="sm" />
            <Text role="status">Opening the secure payment form…</Text>
          </Stack>
        )}
        {stage === 'unavailable' && (
          <Text>The payment form could not be opened. Try again in a moment.</Text>
        )}
      </Stack>
    </Container>
  );
}
