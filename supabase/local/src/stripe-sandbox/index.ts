import { timingSafeEqual } from 'node:crypto';
import { json, type WebHandler } from '../http.ts';
import { AUTHENTICATION_FAILED, cardOutcome, readCard } from './cards.ts';
import { authenticationPage, checkoutPage, messagePage } from './checkout-page.ts';
import { StripeError, invalidParam } from './errors.ts';
import { createDocumentRoutes } from './documents-routes.ts';
import { decodeForm, str, type FormObject } from './form.ts';
import { StripeInvoiceItems } from './invoice-items.ts';
import { StripeLifecycle } from './lifecycle.ts';
import { WebhookDeliverer, type DeliveryOptions, type WebhookEndpoint } from './webhooks.ts';
import type { StripeDocuments } from './documents.ts';
import { StripeWorld } from './world.ts';

/**
 * A local stand-in for Stripe, mounted by the gateway at /sandbox/stripe: the REST API our
 * billing adapter calls through the official SDK (same paths under /v1, form-encoded bodies,
 * JSON objects and ids, error bodies, Bearer secret-key auth), the hosted checkout page, and
 * signed webhook deliveries with retries, as `stripe listen --forward-to` sends them.
 */

/** Local-only test-mode secrets: they unlock nothing but this sandbox. */
export const SANDBOX_STRIPE_SECRET_KEY =
  'sk_test_51ShortlaneLocalSandboxKey000000000000000000000000000000000000000000000000000000000000';
export const SANDBOX_STRIPE_WEBHOOK_SECRET = 'whsec_shortlane_local_sandbox_webhook_secret_0000';

export interface StripeSandboxOptions {
  /** The sandbox's own public address (e.g. http://127.0.0.1:54321/sandbox/stripe). */
  publicUrl: string;
  secretKey?: string;
  /** Where events go; `stripe listen --forward-to` style. */
  webhooks?: WebhookEndpoint[];
  delivery?: DeliveryOptions;
  /** Unix seconds (tests move it). */
  now?: () => number;
  /** How long a checkout session stays open without `expires_at` (Stripe: 24 hours). */
  checkoutExpirySeconds?: number;
  /** How often open sessions past their expiry are expired (`checkout.session.expired`). */
  expirySweepMs?: number;
}

export interface StripeSandbox {
  handler: WebHandler;
  world: StripeWorld;
  lifecycle: StripeLifecycle;
  invoiceItems: StripeInvoiceItems;
  documents: StripeDocuments;
  deliverer: WebhookDeliverer;
  stop(): Promise<void>;
}

function keyOf(request: Request): string | undefined {
  const header = request.headers.get('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer) return bearer;
  // `curl -u sk_test_…:` sends the key as the Basic user name; Stripe takes that too.
  const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
  return basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined;
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const redacted = (key: string) =>
  `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

async function formOf(request: Request): Promise<FormObject> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const body = await request.text();
  if (body === '') return {};
  if (type !== 'application/x-www-form-urlencoded')
    throw new StripeError(
      400,
      'invalid_request_error',
      'Invalid request: request parameters should be form-encoded.',
    );
  const form = decodeForm(body);
  if (!form)
    throw new StripeError(
      400,
      'invalid_request_error',
      'Invalid request: malformed parameter name.',
    );
  return form;
}

/** Stripe's list envelope, newest first, `limit` 1..100 (default 10). */
export function listOf<T extends { created: number }>(
  items: T[],
  url: string,
  query: URLSearchParams,
): unknown {
  const limitText = query.get('limit');
  const limit = limitText === null ? 10 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidParam('limit', 'Invalid integer: limit must be between 1 and 100.');
  // Newest first, as Stripe lists: `created` is in whole seconds, so within a second the later
  // one (items are kept in the order they were made) comes first too.
  const sorted = [...items].reverse().sort((a, b) => b.created - a.created);
  return { object: 'list', data: sorted.slice(0, limit), has_more: sorted.length > limit, url };
}

export function createStripeSandbox(options: StripeSandboxOptions): StripeSandbox {
  const secretKey = options.secretKey ?? SANDBOX_STRIPE_SECRET_KEY;
  const endpoints = options.webhooks ?? [];
  const deliverer = new WebhookDeliverer(() => endpoints, options.delivery);
  const world: StripeWorld = new StripeWorld({
    publicUrl: options.publicUrl,
    now: options.now,
    checkoutExpirySeconds: options.checkoutExpirySeconds,
    emit: (event) => {
      // A paid invoice gets the PaymentIntent and Charge behind it (documents.ts) first.
      if (event.type === 'invoice.paid') {
        const invoice = world.invoices.get(String(event.data.object.id));
        if (invoice) documents.docs.recordPayment(invoice);
      }
      deliverer.send(event.id, JSON.stringify(event, null, 2));
    },
  });
  // Stripe expires an abandoned session on its own and says so with checkout.session.expired.
  const sweep = setInterval(() => world.expireDueSessions(), options.expirySweepMs ?? 1000);
  sweep.unref();
  const lifecycle = new StripeLifecycle(world);
  const invoiceItems = new StripeInvoiceItems(world);
  const documents = createDocumentRoutes(world, options.publicUrl);
  /** Refunds by the Idempotency-Key that made them: a retried request gets the first one. */
  const refundsByKey = new Map<string, unknown>();
  /** Sessions whose card asked for 3-D Secure, waiting for the confirm step. */
  const awaitingAuthentication = new Map<string, string | null>();

  async function api(request: Request, path: string[]): Promise<Response> {
    const key = keyOf(request);
    if (!key)
      throw new StripeError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    if (!sameKey(key, secretKey))
      throw new StripeError(
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${redacted(key)}`,
        'api_key_invalid',
      );
    const method = request.method;
    const query = new URL(request.url).searchParams;
    // Nested resources (checkout/sessions) read as one name.
    const [resource, id, extra] =
      path[0] === 'checkout' ? [`checkout/${path[1] ?? ''}`, ...path.slice(2)] : path;
    // `invoices/create_preview` is a verb, not an id.
    const route =
      resource === 'invoices' && id === 'create_preview'
        ? `${method} invoices/create_preview`
        : `${method} ${resource}${id ? '/:id' : ''}${extra ? `/${extra}` : ''}`;
    const fourth = path[0] === 'checkout' ? path[4] : path[3];
    const idempotencyKey = request.headers.get('idempotency-key');
    if (route === 'POST refunds' && idempotencyKey) {
      const seen = refundsByKey.get(idempotencyKey);
      if (seen) return json(seen);
      const refund = documents.docs.createRefund(await formOf(request));
      refundsByKey.set(idempotencyKey, refund);
      return json(refund);
    }
    const own = await documents.api(route, id, fourth, query, () => formOf(request));
    if (own) return own;
    switch (route) {
      case 'POST prices':
        return json(world.createPrice(await formOf(request)));
      case 'GET prices/:id':
        return json(world.price(id!));
      case 'POST customers':
        return json(world.createCustomer(await formOf(request)));
      case 'GET customers/:id':
        return json(world.customer(id!));
      case 'POST checkout/sessions': {
        const form = await formOf(request);
        return json(
          str(form.mode) === 'setup'
            ? documents.docs.createSetupSession(form)
            : world.createCheckoutSession(form),
        );
      }
      case 'GET checkout/sessions/:id':
        return json(world.session(id!));
      case 'POST checkout/sessions/:id/expire':
        return json(world.expireSession(id!));
      case 'GET subscriptions/:id':
        return json(world.subscription(id!));
      case 'POST subscriptions/:id':
        return json(lifecycle.updateSubscription(id!, await formOf(request)));
      case 'POST subscriptions':
        return json(lifecycle.createSubscription(await formOf(request)));
      case 'POST subscription_schedules':
        return json(lifecycle.createSchedule(await formOf(request)));
      case 'GET subscription_schedules/:id':
        return json(lifecycle.schedule(id!));
      case 'POST subscription_schedules/:id':
        return json(lifecycle.updateSchedule(id!, await formOf(request)));
      case 'POST subscription_schedules/:id/release':
        return json(lifecycle.releaseSchedule(id!));
      case 'POST subscription_schedules/:id/cancel':
        return json(lifecycle.cancelSchedule(id!));
      case 'POST invoices/create_preview':
        return json(lifecycle.previewInvoice(await formOf(request)));
      case 'POST coupons':
        return json(world.discounts.createCoupon(await formOf(request)));
      case 'GET coupons/:id':
        return json(world.discounts.coupon(id!));
      case 'POST promotion_codes':
        return json(world.discounts.createPromotionCode(await formOf(request)));
      case 'GET promotion_codes':
        return json(
          listOf(world.discounts.findPromotionCodes(query), '/v1/promotion_codes', query),
        );
      case 'GET promotion_codes/:id':
        return json(world.discounts.promotionCode(id!));
      case 'DELETE subscriptions/:id':
        return json(world.cancelSubscription(id!));
      case 'GET invoices': {
        const customer = query.get('customer');
        const subscription = query.get('subscription');
        const invoices = [...world.invoices.values()].filter(
          (invoice) =>
            (!customer || invoice.customer === customer) &&
            (!subscription || invoice.parent.subscription_details.subscription === subscription),
        );
        return json(listOf(invoices, '/v1/invoices', query));
      }
      case 'GET invoices/:id':
        return json(world.invoice(id!));
      case 'POST invoiceitems':
        return json(
          invoiceItems.create(await formOf(request), request.headers.get('idempotency-key')),
        );
      case 'GET invoiceitems/:id':
        return json(invoiceItems.item(id!));
      case 'GET events': {
        const type = query.get('type');
        const events = world.events.filter((event) => !type || event.type === type);
        return json(listOf(events, '/v1/events', query));
      }
      case 'GET events/:id':
        return json(world.event(id!));
    }
    throw new StripeError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: /v1/${path.join('/')}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }

  function successRedirect(sessionId: string): Response {
    const session = world.session(sessionId);
    const target = session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
    return new Response(null, { status: 303, headers: { location: target } });
  }

  function view(sessionId: string, extra: { error?: string; email?: string } = {}, status = 200) {
    const session = world.session(sessionId);
    const plan = world.sessionPlan(sessionId);
    return checkoutPage(
      { session, price: plan.price, quantity: plan.quantity, trialDays: plan.trialDays, ...extra },
      status,
    );
  }

  /** The card given at checkout stays on file for later charges (reactivation, upgrades). */
  const paidWithCard = (session: { customer: string | null }) => {
    if (session.customer) lifecycle.cardsOnFile.add(session.customer);
  };

  async function checkout(request: Request, sessionId: string, step?: string): Promise<Response> {
    let session;
    try {
      session = world.session(sessionId);
    } catch {
      return messagePage(
        'Something went wrong',
        'The page you were looking for could not be found.',
        404,
      );
    }
    if (session.status === 'complete') return successRedirect(sessionId);
    if (session.status !== 'open')
      return messagePage('This checkout session has expired', 'Go back and start again.', 410);
    if (request.method === 'GET') return view(sessionId);
    if (request.method !== 'POST') return messagePage('Method not allowed', 'Use the form.', 405);
    const fields = new URLSearchParams(await request.text());
    if (step === 'authenticate') {
      if (!awaitingAuthentication.has(sessionId)) return view(sessionId);
      const email = awaitingAuthentication.get(sessionId) ?? null;
      awaitingAuthentication.delete(sessionId);
      if (fields.get('outcome') !== 'complete')
        return view(
          sessionId,
          { error: AUTHENTICATION_FAILED.message, email: email ?? undefined },
          402,
        );
      paidWithCard(world.completeCheckout(sessionId, email));
      return successRedirect(sessionId);
    }
    const email = fields.get('email')?.trim() || null;
    // A trial that does not require a card starts without one when none is given.
    const plan = world.sessionPlan(sessionId);
    if (
      plan.trialDays > 0 &&
      session.payment_method_collection === 'if_required' &&
      !(fields.get('cardNumber') ?? '').trim()
    ) {
      world.completeCheckout(sessionId, email);
      return successRedirect(sessionId);
    }
    const card = readCard(
      {
        number: fields.get('cardNumber') ?? '',
        expiry: fields.get('cardExpiry') ?? '',
        cvc: fields.get('cardCvc') ?? '',
      },
      new Date(world.now() * 1000),
    );
    if (!card.ok) return view(sessionId, { error: card.message, email: email ?? undefined }, 400);
    const outcome = cardOutcome(card.number);
    if (outcome.kind === 'declined')
      return view(sessionId, { error: outcome.message, email: email ?? undefined }, 402);
    if (outcome.kind === 'requires_action') {
      awaitingAuthentication.set(sessionId, email);
      return authenticationPage(session);
    }
    const done = world.completeCheckout(sessionId, email);
    paidWithCard(done);
    // Checkout saves the card it charged as the customer's default, as Stripe does.
    documents.docs.attachCard(done.customer!, card, fields.get('billingName')?.trim() || null, {
      quiet: true,
    });
    return successRedirect(sessionId);
  }

  const handler: WebHandler = async (request) => {
    const parts = new URL(request.url).pathname.split('/').filter(Boolean);
    try {
      if (parts[0] === 'v1') return await api(request, parts.slice(1));
      const page = await documents.pages(request, parts);
      if (page) return page;
      if (parts[0] === 'c' && parts[1] === 'pay' && parts[2])
        return await checkout(request, parts[2], parts[3]);
      // Test-clock stand-in: POST /_sandbox/subscriptions/:id/renew outcome=paid|failed.
      if (
        parts[0] === '_sandbox' &&
        parts[1] === 'subscriptions' &&
        parts[3] === 'renew' &&
        request.method === 'POST'
      ) {
        const key = keyOf(request);
        if (!key || !sameKey(key, secretKey))
          throw new StripeError(401, 'invalid_request_error', 'Invalid API Key provided.');
        const outcome = str((await formOf(request)).outcome) === 'failed' ? 'failed' : 'paid';
        return json(world.renewSubscription(parts[2]!, outcome));
      }
      // Stand-in for a saved card going bad: POST /_sandbox/customers/:id/card
      // outcome=declined|succeeds; later charges without the customer present decline.
      if (
        parts[0] === '_sandbox' &&
        parts[1] === 'customers' &&
        parts[3] === 'card' &&
        request.method === 'POST'
      ) {
        const key = keyOf(request);
        if (!key || !sameKey(key, secretKey))
          throw new StripeError(401, 'invalid_request_error', 'Invalid API Key provided.');
        const customer = world.customer(parts[2]!);
        if (str((await formOf(request)).outcome) === 'declined')
          lifecycle.decliningCustomers.add(customer.id);
        else lifecycle.decliningCustomers.delete(customer.id);
        return json(customer);
      }
      return json({ error: { type: 'invalid_request_error', message: 'Not found' } }, 404);
    } catch (error) {
      if (error instanceof StripeError) return error.toResponse();
      throw error;
    }
  };

  return {
    handler,
    world,
    lifecycle,
    invoiceItems,
    documents: documents.docs,
    deliverer,
    stop: () => {
      clearInterval(sweep);
      return deliverer.stop();
    },
  };
}
