import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { json, type WebHandler } from '../http.ts';
import { readCard } from '../payment-sandbox/card-form.ts';
import type { DeliveryOptions, WebhookEndpoint } from '../payment-sandbox/webhook-deliverer.ts';
import { AUTHENTICATION_FAILED, paddleCardOutcome } from './cards.ts';
import {
  authenticationFrame,
  checkoutEventData,
  checkoutFrame,
  completedFrame,
  messageFrame,
  parentOrigin,
  type FrameContext,
  type PostedEvent,
} from './checkout-page.ts';
import { PaddleError, invalidField } from './errors.ts';
import { PaddleLifecycle } from './lifecycle.ts';
import { transactionInvoicePdf } from './invoice-pdf.ts';
import { PADDLE_JS } from './paddle-js.ts';
import { paddleDeliverer } from './webhooks.ts';
import { PaddleAdjustments } from './adjustments.ts';
import { PaddleOneTimeCharges } from './one-time-charges.ts';
import { PaddleWorld, type CardPayment, type CheckoutDetails } from './world.ts';

/**
 * A local stand-in for Paddle Billing, mounted by the gateway at /sandbox/paddle: the REST API
 * our adapter calls through the official SDK (Paddle's paths at the root, JSON bodies, `data` and
 * `meta` envelopes, `ctm_`/`txn_`/`sub_`/`pri_` ids, error bodies, Bearer API key), a
 * Paddle.js-compatible script (/paddle.js) whose overlay opens the checkout frame
 * (/checkout/frame), and signed notifications with retries to the webhook destinations.
 */

/** Local-only sandbox credentials: they unlock nothing but this sandbox. */
export const SANDBOX_PADDLE_API_KEY =
  'pdl_sdbx_apikey_01shortlanelocalsandbox000000_ShortlaneLocalSandboxKey0000000_A1b';
export const SANDBOX_PADDLE_WEBHOOK_SECRET =
  'pdl_ntfset_01shortlanelocalsandbox0000000_ShortlaneLocalWebhookSecret000000';
export const SANDBOX_PADDLE_CLIENT_TOKEN = 'test_shortlanelocalsandbox00000';

export interface PaddleSandboxOptions {
  /** The sandbox's own public address (e.g. http://127.0.0.1:54321/sandbox/paddle). */
  publicUrl: string;
  apiKey?: string;
  clientToken?: string;
  /** The account's default payment link, for transactions created without `checkout.url`. */
  defaultPaymentLink?: string | null;
  webhooks?: WebhookEndpoint[];
  delivery?: DeliveryOptions;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  /**
   * How long a refund waits for Paddle's approval (Paddle's sandbox: up to ten minutes); null
   * leaves it pending until POST /_sandbox/adjustments/{id}/approve or /reject. Default 0.
   */
  refundApprovalMs?: number | null;
}

export interface PaddleSandbox {
  handler: WebHandler;
  world: PaddleWorld;
  oneTimeCharges: PaddleOneTimeCharges;
  adjustments: PaddleAdjustments;
  lifecycle: PaddleLifecycle;
  stop(): Promise<void>;
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const envelope = (data: unknown, status = 200) =>
  json({ data, meta: { request_id: randomUUID() } }, status);

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PaddleError(400, 'bad_request', 'Invalid request: the body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new PaddleError(400, 'bad_request', 'Invalid request: the body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function createPaddleSandbox(options: PaddleSandboxOptions): PaddleSandbox {
  const apiKey = options.apiKey ?? SANDBOX_PADDLE_API_KEY;
  const clientToken = options.clientToken ?? SANDBOX_PADDLE_CLIENT_TOKEN;
  const endpoints = options.webhooks ?? [];
  const deliverer = paddleDeliverer(() => endpoints, options.delivery);
  const world = new PaddleWorld({
    publicUrl: options.publicUrl,
    now: options.now,
    emit: (event) => deliverer.send(event.event_id, JSON.stringify(event)),
  });
  const oneTimeCharges = new PaddleOneTimeCharges(world);
  const adjustments = new PaddleAdjustments(world, options.refundApprovalMs);
  const lifecycle = new PaddleLifecycle(
    world,
    () => options.defaultPaymentLink ?? null,
    (subscriptionId) => adjustments.hasPendingRefund(subscriptionId),
  );
  /** Signs the invoice PDF links, which work without the API key for an hour, as Paddle's do. */
  const linkSecret = randomBytes(32);
  const linkSignature = (id: string, expires: number) =>
    createHmac('sha256', linkSecret).update(`${id}:${expires}`).digest('hex');
  /** Checkouts whose card asked for 3-D Secure, waiting for the authentication step. */
  const awaitingAuthentication = new Map<string, { details: CheckoutDetails; card: CardPayment }>();

  function authenticate(request: Request): void {
    const header = request.headers.get('authorization') ?? '';
    const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!key) throw new PaddleError(401, 'authentication_missing', 'Authentication header missing');
    if (!sameKey(key, apiKey))
      throw new PaddleError(403, 'forbidden', "You aren't permitted to perform this request.");
  }

  /**
   * The sandbox's controls, standing in for time and for a card going bad (Bearer API key):
   *   POST /_sandbox/subscriptions/{id}/renew { outcome?: "failed" }   the period ends now
   *   POST /_sandbox/customers/{id}/card { outcome: "declined" | "succeeds" }
   *   POST /_sandbox/adjustments/{id}/approve | reject                Paddle's review of a refund
   */
  async function controls(request: Request, path: string[]): Promise<Response> {
    authenticate(request);
    const [resource, id, action] = path;
    const body = await bodyOf(request);
    if (request.method === 'POST' && resource === 'subscriptions' && id && action === 'renew')
      return envelope(lifecycle.renew(id, body.outcome === 'failed' ? 'failed' : 'charge'));
    if (
      request.method === 'POST' &&
      resource === 'adjustments' &&
      id &&
      (action === 'approve' || action === 'reject')
    )
      return envelope(adjustments.decide(id, action === 'approve' ? 'approved' : 'rejected'));
    if (request.method === 'POST' && resource === 'customers' && id && action === 'card') {
      const customer = world.customer(id);
      if (body.outcome !== 'declined' && body.outcome !== 'succeeds')
        throw invalidField('outcome', 'must be declined or succeeds');
      if (body.outcome === 'declined') world.decliningCustomers.add(customer.id);
      else world.decliningCustomers.delete(customer.id);
      return envelope(customer);
    }
    throw new PaddleError(404, 'not_found', `Unrecognized request: ${request.method} /_sandbox`);
  }

  async function api(request: Request, path: string[]): Promise<Response> {
    authenticate(request);
    const [resource, id, action] = path;
    const route = `${request.method} ${resource}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    switch (route) {
      case 'POST customers':
        return envelope(world.createCustomer(await bodyOf(request)), 201);
      case 'GET customers/:id':
        return envelope(world.customer(id!));
      case 'POST customers/:id/auth-token':
        return envelope(world.customerAuthToken(id!));
      case 'POST products':
        return envelope(world.createProduct(await bodyOf(request)), 201);
      case 'GET products/:id':
        return envelope(world.product(id!));
      case 'POST prices':
        return envelope(world.createPrice(await bodyOf(request)), 201);
      case 'GET prices/:id':
        return envelope(world.price(id!));
      case 'POST transactions':
        return envelope(
          world.createTransaction(await bodyOf(request), options.defaultPaymentLink ?? null),
          201,
        );
      case 'GET transactions/:id':
        return envelope(world.transaction(id!));
      case 'GET transactions/:id/invoice': {
        // A billed transaction's invoice, as a short-lived link to its PDF.
        const transaction = world.transaction(id!);
        if (!transaction.invoice_number)
          throw new PaddleError(
            400,
            'transaction_invoice_unavailable',
            `transaction ${transaction.id} has no invoice yet: it is not billed`,
            undefined,
            'request_error',
            'transactions',
          );
        const expires = Math.floor(world.nowMs() / 1000) + 3600;
        const query = new URLSearchParams({
          expires: String(expires),
          signature: linkSignature(transaction.id, expires),
        });
        return envelope({ url: `${options.publicUrl}/invoices/${transaction.id}.pdf?${query}` });
      }
      case 'GET subscriptions/:id': {
        const subscription = world.subscription(id!);
        const include = new URL(request.url).searchParams.get('include')?.split(',') ?? [];
        return envelope(
          include.includes('next_transaction')
            ? { ...subscription, next_transaction: oneTimeCharges.nextTransaction(subscription) }
            : subscription,
        );
      }
      case 'PATCH subscriptions/:id':
        return envelope(lifecycle.update(id!, await bodyOf(request)));
      case 'PATCH subscriptions/:id/preview':
        return envelope(lifecycle.preview(id!, await bodyOf(request)));
      case 'GET subscriptions/:id/update-payment-method-transaction':
        return envelope(lifecycle.paymentMethodTransaction(id!));
      case 'POST discounts':
        return envelope(world.createDiscount(await bodyOf(request)), 201);
      case 'GET discounts/:id':
        return envelope(world.discount(id!));
      case 'GET discounts': {
        // Filtered by `code` (comma-separated), as Paddle lists them; one page is enough here.
        const codes = new URL(request.url).searchParams.get('code')?.split(',') ?? null;
        const found = [...world.discounts.values()].filter(
          (discount) => !codes || (discount.code !== null && codes.includes(discount.code)),
        );
        return json({
          data: found,
          meta: {
            request_id: randomUUID(),
            pagination: {
              per_page: 50,
              next: `${options.publicUrl}/discounts?after=${found.at(-1)?.id ?? ''}`,
              has_more: false,
              estimated_total: found.length,
            },
          },
        });
      }
      case 'POST subscriptions/:id/cancel':
        return envelope(world.cancelSubscription(id!, await bodyOf(request)));
      case 'POST subscriptions/:id/charge':
        return envelope(oneTimeCharges.charge(id!, await bodyOf(request)));
      case 'POST adjustments':
        return envelope(adjustments.create(await bodyOf(request)), 201);
      case 'GET adjustments': {
        // One page: a transaction has few adjustments.
        const found = adjustments.list(new URL(request.url).searchParams);
        return json({
          data: found,
          meta: {
            request_id: randomUUID(),
            pagination: {
              per_page: Math.max(found.length, 50),
              next: `${options.publicUrl}/adjustments?after=${found.at(-1)?.id ?? ''}`,
              has_more: false,
              estimated_total: found.length,
            },
          },
        });
      }
      case 'GET events': {
        // Oldest first, as Paddle lists events; `after` pages on from an event id.
        const query = new URL(request.url).searchParams;
        const perPage = Math.min(Math.max(Number(query.get('per_page') ?? 50) || 50, 1), 200);
        const after = query.get('after');
        const start = after ? world.events.findIndex((event) => event.event_id === after) + 1 : 0;
        const page = world.events.slice(start, start + perPage);
        const hasMore = start + perPage < world.events.length;
        return json({
          data: page,
          meta: {
            request_id: randomUUID(),
            pagination: {
              per_page: perPage,
              next: `${options.publicUrl}/events?after=${page.at(-1)?.event_id ?? after ?? ''}`,
              has_more: hasMore,
              estimated_total: world.events.length,
            },
          },
        });
      }
    }
    throw new PaddleError(
      404,
      'not_found',
      `Unrecognized request: ${request.method} /${path.join('/')}`,
    );
  }

  function contextOf(fields: URLSearchParams): FrameContext {
    return {
      token: fields.get('token') ?? '',
      parentOrigin: parentOrigin(fields.get('parent_origin')),
      locale: /^[a-z]{2}(-[A-Z]{2})?$/.test(fields.get('locale') ?? '')
        ? fields.get('locale')!
        : 'en',
    };
  }

  function tokenError(context: FrameContext): Response | null {
    if (sameKey(context.token, clientToken)) return null;
    const error = {
      type: 'request_error',
      code: 'forbidden',
      detail: 'The client-side token is not valid for this account.',
      documentation_url: 'https://developer.paddle.com/v1/errors/shared/forbidden',
    };
    return messageFrame(
      'Checkout unavailable',
      error.detail,
      context,
      [{ name: 'checkout.error', error }],
      403,
    );
  }

  async function checkout(request: Request, parts: string[]): Promise<Response> {
    const url = new URL(request.url);
    const posted = request.method === 'POST';
    const fields = posted ? new URLSearchParams(await request.text()) : url.searchParams;
    const context = contextOf(fields);
    const refused = tokenError(context);
    if (refused) return refused;
    const transactionId = parts[1] === 'frame' ? url.searchParams.get('_ptxn') : parts[1];
    const transaction = transactionId ? world.transactions.get(transactionId) : undefined;
    if (!transaction) {
      const error = {
        type: 'request_error',
        code: 'not_found',
        detail: `Entity ${transactionId ?? ''} not found`,
        documentation_url: 'https://developer.paddle.com/v1/errors/shared/not_found',
      };
      return messageFrame(
        'Something went wrong',
        error.detail,
        context,
        [{ name: 'checkout.error', error }],
        404,
      );
    }
    const loaded: PostedEvent = {
      name: 'checkout.loaded',
      data: checkoutEventData(world, transaction),
    };
    if (!world.isPayable(transaction))
      return completedFrame(transaction, context, [
        { name: 'checkout.completed', data: checkoutEventData(world, transaction) },
      ]);
    if (!posted)
      return checkoutFrame(
        world,
        transaction,
        context,
        { email: fields.get('email') ?? undefined },
        [loaded],
      );

    const failed = (
      form: { error: string },
      details: CheckoutDetails,
      card: CardPayment,
      code: string,
    ) => {
      world.failPayment(transaction.id, details, card, code);
      return checkoutFrame(
        world,
        transaction,
        context,
        {
          email: details.email,
          countryCode: details.countryCode,
          postalCode: details.postalCode,
          error: form.error,
        },
        [{ name: 'checkout.payment.failed', data: checkoutEventData(world, transaction) }],
        402,
      );
    };
    const completed = (details: CheckoutDetails, card: CardPayment) => {
      world.completeCheckout(transaction.id, details, card);
      return completedFrame(transaction, context, [
        { name: 'checkout.completed', data: checkoutEventData(world, transaction) },
      ]);
    };

    if (parts[2] === 'authenticate') {
      const waiting = awaitingAuthentication.get(transaction.id);
      if (!waiting) return checkoutFrame(world, transaction, context, {}, [loaded]);
      awaitingAuthentication.delete(transaction.id);
      if (fields.get('outcome') !== 'complete')
        return failed(
          { error: AUTHENTICATION_FAILED.message },
          waiting.details,
          waiting.card,
          AUTHENTICATION_FAILED.errorCode,
        );
      return completed(waiting.details, waiting.card);
    }

    const details: CheckoutDetails = {
      email: fields.get('email')?.trim() ?? '',
      countryCode: /^[A-Z]{2}$/.test(fields.get('country') ?? '') ? fields.get('country')! : 'US',
      postalCode: fields.get('postcode')?.trim() ?? '',
    };
    const again = (error: string) =>
      checkoutFrame(world, transaction, context, { ...details, error }, [], 400);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(details.email))
      return again('Enter a valid email address.');
    if (details.postalCode === '') return again('Enter your ZIP/Postcode.');
    const check = readCard(
      {
        number: fields.get('cardNumber') ?? '',
        expiry: fields.get('expiry') ?? '',
        cvc: fields.get('cvc') ?? '',
      },
      new Date(world.nowMs()),
    );
    if (!check.ok) return again(check.message);
    const card: CardPayment = {
      number: check.number,
      expMonth: check.expMonth,
      expYear: check.expYear,
      cardholderName: fields.get('cardholder')?.trim() ?? '',
    };
    const outcome = paddleCardOutcome(check.number);
    if (outcome.kind === 'declined')
      return failed({ error: outcome.message }, details, card, outcome.errorCode);
    if (outcome.kind === 'requires_action') {
      awaitingAuthentication.set(transaction.id, { details, card });
      return authenticationFrame(transaction, context);
    }
    return completed(details, card);
  }

  const handler: WebHandler = async (request) => {
    const parts = new URL(request.url).pathname.split('/').filter(Boolean);
    try {
      if (parts[0] === 'paddle.js' && parts.length === 1)
        return new Response(PADDLE_JS, {
          headers: {
            'content-type': 'text/javascript; charset=utf-8',
            'cache-control': 'no-cache',
            'access-control-allow-origin': '*',
          },
        });
      if (parts[0] === 'checkout' && parts[1]) return await checkout(request, parts);
      if (parts[0] === '_sandbox') return await controls(request, parts.slice(1));
      if (parts[0] === 'invoices' && parts[1]?.endsWith('.pdf') && request.method === 'GET') {
        const id = parts[1].slice(0, -'.pdf'.length);
        const query = new URL(request.url).searchParams;
        const expires = Number(query.get('expires'));
        const signature = query.get('signature') ?? '';
        const transaction = world.transactions.get(id);
        if (
          !transaction?.invoice_number ||
          !(expires * 1000 > world.nowMs()) ||
          !sameKey(signature, linkSignature(id, expires))
        )
          return new Response('Request has expired or is not signed', { status: 403 });
        const customer = transaction.customer_id
          ? world.customers.get(transaction.customer_id)
          : undefined;
        return new Response(transactionInvoicePdf(transaction, customer?.email ?? null), {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': `inline; filename="${transaction.invoice_number}.pdf"`,
          },
        });
      }
      return await api(request, parts);
    } catch (error) {
      if (error instanceof PaddleError) return error.toResponse();
      throw error;
    }
  };

  return {
    handler,
    world,
    oneTimeCharges,
    adjustments,
    lifecycle,
    stop: () => {
      adjustments.stop();
      return deliverer.stop();
    },
  };
}
