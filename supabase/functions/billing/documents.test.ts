import assert from 'node:assert/strict';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { until, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { createStripeWebhookHandler } from '../stripe-webhook/handler.ts';
import { webhookTesting } from '../stripe-webhook/testing.ts';
import { createBillingHandler } from './handler.ts';

/**
 * The billing function's document routes against the stack and its Stripe sandbox: the
 * payment-method checkout, invoice PDFs, paying a past-due invoice and tax details, each for
 * the account's billing manager and refused to anyone else.
 */
const env = useStackAsRuntimeEnv();
const billing = createBillingHandler({
  billing: cardBillingFromEnv,
  paddle: overlayBillingFromEnv,
  defaultBillingType: () => '1',
  db: sql,
  returnOrigins: () => 'http://localhost:*',
});
const { subscribedUser, admin, stripe } = webhookTesting(env, createStripeWebhookHandler());

async function call(authorization: string, method: string, path: string, body?: unknown) {
  return await billing(
    new Request(`http://localhost/billing${path}`, {
      method,
      headers: {
        authorization,
        origin: 'http://localhost:45173',
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}
// deno-lint-ignore no-explicit-any -- the answers have several shapes; each step reads its own
const jsonOf = async (response: Response) => (await response.json()) as Record<string, any>;

async function stranger() {
  const { data, error } = await admin.auth.admin.createUser({
    email: `stranger-${crypto.randomUUID().slice(0, 8)}@functions.test`,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  return await userAuthorization(env, data.user.id);
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

Deno.test('billing: payment method, invoices, past due and tax details', async (t) => {
  try {
    const user = await subscribedUser();
    const owner = await userAuthorization(env, user.userId);
    const other = await stranger();
    // The stack's own webhook delivery records the customer and the invoice (two events).
    const invoiceId = await until(async () => {
      const [row] = await sql()<{ id: string }[]>`
        select i.id from public.invoices i
        where i.account_id = ${user.account} and exists (select 1 from public.billing_customers c
          where c.account_id = i.account_id and c.pm_last_four is not null)`;
      return row?.id;
    });

    await t.step('the payment-method checkout opens for the owner only', async () => {
      const refused = await call(
        other,
        'GET',
        `/settings/payment-method?account_id=${user.account}`,
      );
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
      const bad = await call(
        owner,
        'GET',
        '/settings/payment-method?return_path=https://evil.test',
      );
      assert.equal(bad.status, 422);
      await bad.body?.cancel();
      const answer = await call(owner, 'GET', '/settings/payment-method');
      assert.equal(answer.status, 200);
      const { data } = await jsonOf(answer);
      assert.match(data.transaction_id, /^cs_test_/);
      assert.equal(
        data.success_url,
        'http://localhost:45173/app/settings/payment-method?session_id={CHECKOUT_SESSION_ID}',
      );
      const saved = await fetch(
        data.payment_url,
        form({ cardNumber: '5555 5555 5555 4444', cardExpiry: '04/32', cardCvc: '321' }),
      );
      await saved.body?.cancel();
      assert.equal(saved.status, 303);
      const card = await until(async () => {
        const [row] = await sql()<{ pm_last_four: string; pm_expiration: string }[]>`
          select pm_last_four, pm_expiration from public.billing_customers
          where account_id = ${user.account} and pm_last_four = '4444'`;
        return row;
      });
      assert.equal(card.pm_expiration, '04/2032');
    });

    await t.step('an invoice PDF downloads for the owner, not for a stranger', async () => {
      const pdf = await call(owner, 'GET', `/invoices/${invoiceId}/pdf`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.match(
        pdf.headers.get('content-disposition') ?? '',
        /^attachment; filename="Invoice-SBX-\d+\.pdf"$/,
      );
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      assert.equal(new TextDecoder().decode(bytes.slice(0, 8)), '%PDF-1.4');
      const refused = await call(other, 'GET', `/invoices/${invoiceId}/pdf`);
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
    });

    await t.step('a past-due plan is paid on the hosted invoice page and restored', async () => {
      const nothing = await call(owner, 'POST', '/settings/subscription/pay', {});
      assert.equal(nothing.status, 404);
      await nothing.body?.cancel();
      const renew = await fetch(
        `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${user.subscription}/renew`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'outcome=failed',
        },
      );
      await renew.body?.cancel();
      await until(async () => {
        const [row] = await sql()`
          select 1 from public.subscriptions
          where billing_id = ${user.subscription} and billing_status = 'past_due'`;
        return row;
      });
      const refused = await call(other, 'POST', '/settings/subscription/pay', {
        account_id: user.account,
      });
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
      const answer = await call(owner, 'POST', '/settings/subscription/pay', {});
      assert.equal(answer.status, 200);
      const { data } = await jsonOf(answer);
      assert.match(data.transaction_id, /^in_/);
      const paid = await fetch(
        data.payment_url,
        form({ cardNumber: '4242424242424242', cardExpiry: '12/34', cardCvc: '123' }),
      );
      assert.match(await paid.text(), /Invoice paid/);
      const restored = await until(async () => {
        const [row] = await sql()<{ billing_status: string }[]>`
          select billing_status from public.subscriptions
          where billing_id = ${user.subscription} and billing_status = 'active'`;
        return row;
      });
      assert.equal(restored.billing_status, 'active');
    });

    await t.step('tax details are checked, sent to the customer and kept', async () => {
      const invalid = await call(owner, 'PUT', '/vatinfo', {
        tax_id_type: 'eu_vat',
        address: { line1: '', country: 'Germany' },
      });
      assert.equal(invalid.status, 422);
      const { errors } = await jsonOf(invalid);
      assert.deepEqual(Object.keys(errors).sort(), ['address.country', 'address.line1', 'tax_id']);
      const refused = await call(other, 'PUT', '/vatinfo', {
        account_id: user.account,
        address: { line1: 'Hauptstr. 1', country: 'DE' },
      });
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
      const saved = await call(owner, 'PUT', '/vatinfo', {
        name: 'Acme GmbH',
        tax_id_type: 'eu_vat',
        tax_id: 'DE 123 456 789',
        address: { line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115', country: 'de' },
      });
      assert.equal(saved.status, 200);
      assert.deepEqual((await jsonOf(saved)).billing_customer.tax_id, 'DE123456789');
      const taxIds = await stripe.customers.listTaxIds(user.customer);
      assert.deepEqual(
        taxIds.data.map((taxId) => [taxId.type, taxId.value]),
        [['eu_vat', 'DE123456789']],
      );
      const customer = await stripe.customers.retrieve(user.customer);
      assert.equal(!customer.deleted && customer.address?.country, 'DE');
    });
  } finally {
    await closeSql();
  }
});
