import type { CheckoutSession, Price } from './world.ts';

/**
 * The hosted checkout page (Stripe Checkout's stand-in): the plan and amount, a card form, the
 * card's error under it as Stripe shows one, and the 3-D Secure step for cards that ask for it.
 * Plain HTML forms: no script, so every browser test drives it like a user would.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
  }).format(amount / 100);
}

/** A page in the sandbox's hosted style (checkout, setup, hosted invoice). */
export function hostedPage(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
label{display:block;margin:.8rem 0 .2rem;font-size:.9rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1.2rem;width:100%;padding:.7rem;background:#635bff;color:#fff;border:0;border-radius:4px;font-size:1rem}
.error{color:#df1b41;margin-top:.8rem}.muted{color:#6b7280;font-size:.85rem}</style></head>
<body><p class="muted">Stripe sandbox · test mode</p>${body}</body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

export interface CheckoutView {
  session: CheckoutSession;
  price: Price;
  quantity: number;
  trialDays: number;
  error?: string;
  email?: string;
}

export function checkoutPage(view: CheckoutView, status = 200): Response {
  const { session, price, trialDays } = view;
  const amount = formatAmount(price.unit_amount * view.quantity, price.currency);
  const per = price.recurring.interval;
  const trial = trialDays > 0 ? `<p>${trialDays} days free, then ${amount} per ${per}.</p>` : '';
  const cancel = session.cancel_url
    ? `<p><a href="${escape(session.cancel_url)}">← Back</a></p>`
    : '';
  const error = view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : '';
  const discount = session.total_details.amount_discount;
  const coupon = session.discounts[0]?.coupon ?? '';
  const due =
    discount > 0
      ? `<p>Discount (${escape(coupon)}): −${formatAmount(discount, price.currency)}</p>
<p data-testid="due-today">Due today: <strong>${formatAmount(session.amount_total, price.currency)}</strong></p>`
      : '';
  const cardOptional = trialDays > 0 && session.payment_method_collection === 'if_required';
  const optional = cardOptional
    ? '<p class="muted">No card needed for the trial: leave the card fields empty.</p>'
    : '';
  return hostedPage(
    'Checkout',
    `${cancel}<h1>Subscribe</h1><p><strong>${amount}</strong> per ${per}</p>${trial}${due}${optional}
<form method="post" action="${escape(session.id)}">
<label for="email">Email</label><input id="email" name="email" type="email" value="${escape(view.email ?? session.customer_email ?? '')}">
<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">
<label for="cardExpiry">Expiration (MM / YY)</label><input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" placeholder="MM / YY">
<label for="cardCvc">CVC</label><input id="cardCvc" name="cardCvc" autocomplete="cc-csc" placeholder="CVC">
<label for="billingName">Cardholder name</label><input id="billingName" name="billingName" autocomplete="cc-name">
${error}<button type="submit">${trialDays > 0 ? 'Start trial' : 'Subscribe'}</button></form>`,
    status,
  );
}

export function authenticationPage(session: CheckoutSession): Response {
  return hostedPage(
    '3D Secure authentication',
    `<h1>Authenticate your payment</h1><p>This test card asks for 3D Secure authentication.</p>
<form method="post" action="${escape(session.id)}/authenticate">
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button></form>`,
  );
}

export function messagePage(title: string, message: string, status: number): Response {
  return hostedPage(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`, status);
}
