import type { PaddleWorld, Transaction } from './world.ts';

/**
 * The overlay checkout's frame (Paddle Checkout's stand-in), opened by paddle.js in an iframe:
 * the items and amount, the customer's email, country and postcode, a card form, the card's
 * error as Paddle shows one, and the 3-D Secure step for cards that ask for it. Plain HTML
 * forms; each page tells the parent page what happened with `postMessage`, as Paddle Checkout
 * does, through the events paddle.js hands to `eventCallback`.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a <script>: nothing in it can close the element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

export function formatAmount(amount: string | number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
    Number(amount) / 100,
  );
}

/** Where the checkout may talk to: an http(s) origin the page gave, else nowhere. */
export function parentOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value
      ? value
      : null;
  } catch {
    return null;
  }
}

export interface FrameContext {
  token: string;
  parentOrigin: string | null;
  locale: string;
}

export interface PostedEvent {
  name: string;
  data?: unknown;
  error?: { type: string; code: string; detail: string; documentation_url: string };
}

function page(
  title: string,
  body: string,
  context: FrameContext,
  events: PostedEvent[],
  status: number,
) {
  const post = context.parentOrigin
    ? `<script>(function(){var origin=${scriptJson(context.parentOrigin)};var events=${scriptJson(events)};
for(var i=0;i<events.length;i++){var e=events[i];e.source='paddle-sandbox';window.parent.postMessage(e,origin);}})();</script>`
    : '';
  const html = `<!doctype html><html lang="${escape(context.locale)}"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;color:#111827}
label{display:block;margin:.7rem 0 .2rem;font-size:.9rem}input,select{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1.1rem;width:100%;padding:.7rem;background:#1f2937;color:#fff;border:0;border-radius:4px;font-size:1rem}
.error{color:#b91c1c;margin-top:.8rem}.muted{color:#4b5563;font-size:.85rem}.row{display:flex;gap:.6rem}.row>div{flex:1}</style></head>
<body><p class="muted">Paddle sandbox · test mode</p>${body}${post}</body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

function hiddenContext(context: FrameContext): string {
  return `<input type="hidden" name="token" value="${escape(context.token)}">
<input type="hidden" name="parent_origin" value="${escape(context.parentOrigin ?? '')}">
<input type="hidden" name="locale" value="${escape(context.locale)}">`;
}

/** The data of Paddle.js' checkout events for a transaction (CheckoutEventsData's shape). */
export function checkoutEventData(world: PaddleWorld, transaction: Transaction) {
  const customer = transaction.customer_id ? world.customers.get(transaction.customer_id) : null;
  const address = transaction.address_id ? world.addresses.get(transaction.address_id) : null;
  const card = transaction.payments[0]?.method_details.card;
  const totals = transaction.details.totals;
  const money = (value: string) => Number(value) / 100;
  return {
    id: `che_${transaction.id.slice(4)}`,
    transaction_id: transaction.id,
    status: transaction.status,
    currency_code: transaction.currency_code,
    custom_data: transaction.custom_data,
    customer: {
      id: customer?.id,
      email: customer?.email,
      address: address
        ? {
            id: address.id,
            country_code: address.country_code,
            postal_code: address.postal_code,
            city: '',
            first_line: '',
            region: '',
          }
        : null,
      business: null,
    },
    items: transaction.items.map((item, index) => {
      const line = transaction.details.line_items[index]!;
      return {
        price_id: item.price.id,
        price_name: item.price.name,
        product: { id: line.product.id, name: line.product.name },
        quantity: item.quantity,
        billing_cycle: item.price.billing_cycle ?? undefined,
        trial_period: item.price.trial_period ?? undefined,
        totals: {
          subtotal: money(line.totals.subtotal),
          discount: 0,
          tax: 0,
          total: money(line.totals.total),
        },
      };
    }),
    totals: {
      subtotal: money(totals.subtotal),
      discount: 0,
      tax: 0,
      total: money(totals.total),
      balance: money(totals.balance),
      credit: 0,
    },
    payment: card
      ? {
          method_details: {
            type: 'card',
            card: {
              type: card.type,
              last4: card.last4,
              expiry_month: card.expiry_month,
              expiry_year: card.expiry_year,
            },
          },
        }
      : { method_details: { type: 'none' } },
    settings: { display_mode: 'overlay', theme: 'light' },
    upsell: null,
  };
}

export interface FormState {
  email?: string;
  countryCode?: string;
  postalCode?: string;
  error?: string;
}

export function checkoutFrame(
  world: PaddleWorld,
  transaction: Transaction,
  context: FrameContext,
  form: FormState,
  events: PostedEvent[],
  status = 200,
): Response {
  const item = transaction.items[0]!;
  const amount = formatAmount(item.price.unit_price.amount, item.price.unit_price.currency_code);
  const cycle = item.price.billing_cycle;
  const per = cycle
    ? ` per ${cycle.frequency > 1 ? `${cycle.frequency} ${cycle.interval}s` : cycle.interval}`
    : '';
  // A subscription's own transaction (a past-due renewal, a payment-method update) is paid, not
  // subscribed to, and its trial is over.
  const own = transaction.subscription_id !== null;
  const trial = own ? null : item.price.trial_period;
  const action = own
    ? transaction.origin === 'subscription_payment_method_change'
      ? 'Update payment method'
      : 'Pay now'
    : cycle
      ? 'Subscribe now'
      : 'Pay now';
  const due = formatAmount(transaction.details.totals.total, transaction.currency_code);
  const product = transaction.details.line_items[0]!.product.name;
  const email =
    form.email ??
    (transaction.customer_id ? world.customers.get(transaction.customer_id)?.email : '') ??
    '';
  const country = form.countryCode ?? 'US';
  const countries = ['US', 'GB', 'DE', 'FR', 'NL', 'CA', 'AU']
    .map((code) => `<option value="${code}"${code === country ? ' selected' : ''}>${code}</option>`)
    .join('');
  const error = form.error ? `<p class="error" role="alert">${escape(form.error)}</p>` : '';
  return page(
    'Checkout',
    `<h1>${escape(product)}</h1><p><strong>${amount}</strong>${escape(per)}</p>
${trial ? `<p>${trial.frequency} ${trial.interval}${trial.frequency > 1 ? 's' : ''} free, then ${amount}${escape(per)}.</p>` : ''}
<p>Due today: <strong data-testid="due-today">${due}</strong></p>
<form method="post" action="${escape(transaction.id)}/pay">${hiddenContext(context)}
<label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" value="${escape(email)}">
<div class="row"><div><label for="country">Country</label><select id="country" name="country">${countries}</select></div>
<div><label for="postcode">ZIP/Postcode</label><input id="postcode" name="postcode" autocomplete="postal-code" value="${escape(form.postalCode ?? '')}"></div></div>
<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">
<label for="cardholder">Name on card</label><input id="cardholder" name="cardholder" autocomplete="cc-name">
<div class="row"><div><label for="expiry">Expiration date</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY"></div>
<div><label for="cvc">Security code</label><input id="cvc" name="cvc" autocomplete="cc-csc" placeholder="CVV"></div></div>
${error}<button type="submit">${action}</button></form>`,
    context,
    events,
    status,
  );
}

export function authenticationFrame(transaction: Transaction, context: FrameContext): Response {
  return page(
    '3D Secure authentication',
    `<h1>Authenticate your payment</h1><p>This test card asks for 3D Secure authentication.</p>
<form method="post" action="${escape(transaction.id)}/authenticate">${hiddenContext(context)}
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button></form>`,
    context,
    [],
    200,
  );
}

export function completedFrame(
  transaction: Transaction,
  context: FrameContext,
  events: PostedEvent[],
): Response {
  return page(
    'Payment successful',
    `<h1>Payment successful</h1><p>Thanks for your purchase. Transaction ${escape(transaction.id)}.</p>`,
    context,
    events,
    200,
  );
}

export function messageFrame(
  title: string,
  message: string,
  context: FrameContext,
  events: PostedEvent[],
  status: number,
): Response {
  return page(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`, context, events, status);
}
