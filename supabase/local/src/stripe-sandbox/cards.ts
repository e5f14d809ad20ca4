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

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardCheck =
  | { ok: true; number: string; expMonth: number; expYear: number }
  | { ok: false; code: string; message: string; param: string };

/** Checks the form's card fields the way Stripe's card element does, before any charge. */
export function readCard(input: CardInput, now: Date): CardCheck {
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number))
    return {
      ok: false,
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
      param: 'number',
    };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12)
    return {
      ok: false,
      code: 'invalid_expiry_month',
      message: "Your card's expiration date is incomplete.",
      param: 'exp_month',
    };
  const endOfMonth = Date.UTC(year, month, 1);
  if (endOfMonth <= now.getTime())
    return {
      ok: false,
      code: 'invalid_expiry_year',
      message: "Your card's expiration year is in the past.",
      param: 'exp_year',
    };
  if (!/^\d{3,4}$/.test(input.cvc.trim()))
    return {
      ok: false,
      code: 'incorrect_cvc',
      message: "Your card's security code is incomplete.",
      param: 'cvc',
    };
  return { ok: true, number, expMonth: month, expYear: year };
}

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

/** Stripe's brand names by leading digits (enough for the test cards). */
export function cardBrand(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}
