/**
 * Paddle's documented sandbox test cards (developer.paddle.com, "test cards") and what each does
 * in the checkout. Paddle lists no insufficient-funds card; the sandbox takes the card networks'
 * usual one (4000 0000 0000 9995) for it. Any other well-formed number is refused as Paddle's
 * sandbox refuses real cards.
 */
export type PaddleCardOutcome =
  | { kind: 'succeeds' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; errorCode: string; message: string };

export const DECLINED_MESSAGE =
  'Your payment was declined. Check your card details or try another payment method.';

export const TEST_CARDS: Readonly<Record<string, PaddleCardOutcome>> = {
  '4242424242424242': { kind: 'succeeds' },
  '4000056655665556': { kind: 'succeeds' },
  '4000002760003184': { kind: 'succeeds' },
  '4000003800000446': { kind: 'requires_action' },
  '4000000000000002': { kind: 'declined', errorCode: 'declined', message: DECLINED_MESSAGE },
  '4000000000009995': {
    kind: 'declined',
    errorCode: 'insufficient_funds',
    message: 'Your payment was declined because of insufficient funds. Try another payment method.',
  },
};

export const AUTHENTICATION_FAILED = {
  errorCode: 'authentication_failed',
  message: 'We could not authenticate your payment. Try again or use another payment method.',
} as const;

export function paddleCardOutcome(number: string): PaddleCardOutcome {
  return (
    TEST_CARDS[number] ?? {
      kind: 'declined',
      errorCode: 'declined',
      message: 'This is a sandbox checkout: use a test card (for example 4242 4242 4242 4242).',
    }
  );
}
