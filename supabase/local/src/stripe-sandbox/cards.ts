/**
 * Stripe's documented test cards (docs.stripe.com/testing) and what each does at checkout.
 * Any other well-formed number is refused as Stripe's test mode refuses real cards.
 */
export type CardOutcome =
  | { kind: 'succeeds' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; code: string; declineCode: string; message: string };

const DECLINED = 'Your card was declined.';

export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4242424242424242': { kind: 'succeeds' },
  '5555555555554444': { kind: 'succeeds' },
  '4000000000000002': {
    kind: 'declined',
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: DECLINED,
  },
  '4000000000009995': {
    kind: 'declined',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000002500003155': { kind: 'requires_action' },
};

export const AUTHENTICATION_FAILED = {
  code: 'payment_intent_authentication_failure',
  message:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

export {
  cardBrand,
  readCard,
  type CardCheck,
  type CardInput,
} from '../payment-sandbox/card-form.ts';

export function cardOutcome(number: string): CardOutcome {
  return (
    TEST_CARDS[number] ?? {
      kind: 'declined',
      code: 'card_declined',
      declineCode: 'test_mode_live_card',
      message:
        'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
    }
  );
}
