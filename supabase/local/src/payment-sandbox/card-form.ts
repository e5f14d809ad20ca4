/**
 * The card fields of a sandbox checkout page, checked before any charge as the providers' card
 * forms do (a Luhn-valid number, an expiry not in the past, a 3–4 digit CVC). What a valid test
 * card then does is each provider's own table (stripe-sandbox/cards.ts, paddle-sandbox/cards.ts).
 */

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

/** Checks the form's card fields before any charge. */
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

/** Card brand names by leading digits, as both providers spell them (enough for the test cards). */
export function cardBrand(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}
