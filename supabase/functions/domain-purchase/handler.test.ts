import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { closeSql, sql } from '../_shared/sql.ts';
import { until, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { registrarSandbox } from '../../tests/support/registrar.ts';
import { billingDocumentsFromEnv } from '../_shared/billing/documents.ts';
import { registrarFromEnv } from '../_shared/registrar/registrar.ts';
import { type DnsProvider, DnsProviderError, type DnsZone } from '../kiosk-dns/provider.ts';
import { CART_EMPTY } from './order.ts';
import { purchaseCaller, refundAsStaff, sandboxDnsOf } from './testing.ts';
import { MAX_ATTEMPTS } from './worker.ts';

/**
 * The function called directly against the running stack: its database, Stripe sandbox (whose
 * webhooks reach the stack's stripe-webhook function), registrar sandbox, DNS sandbox and mail
 * catcher. The stack's cron job wakes the deployed worker too; either may take a name, so the
 * steps wait for the state rather than for their own call.
 */
const env = useStackAsRuntimeEnv();
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});
const control = registrarSandbox({
  REGISTRAR_API_URL: env.REGISTRAR_API_URL!,
  REGISTRAR_USERNAME: env.REGISTRAR_USERNAME!,
  REGISTRAR_TOKEN: env.REGISTRAR_TOKEN!,
});
const { call, work } = purchaseCaller(env);

async function newUser() {
  const { data, error } = await admin.auth.admin.createUser({
    email: `buyer-${crypto.randomUUID().slice(0, 8)}@functions.test`,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  return {
    id: data.user.id,
    email: data.user.email!,
    auth: await userAuthorization(env, data.user.id),
  };
}

async function addToCart(userId: string, domain: string, years = 1) {
  await sql()`
    with cart as (
      insert into public.shopping_carts (user_id) values (${userId})
      on conflict (user_id) do update set user_id = excluded.user_id returning id)
    insert into public.cart_items (cart_id, domain, years) select id, ${domain}, ${years} from cart`;
}

async function pay(paymentUrl: string, card: string) {
  const answer = await fetch(paymentUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber: card, cardExpiry: '12 / 34', cardCvc: '123' }),
  });
  await answer.body?.cancel();
  return answer;
}

/**
 * `until` with this file's patience: the purchase worker and the payment sandboxes answer later
 * than a request does.
 */
const eventually = <T>(read: () => Promise<T | null | undefined>) =>
  until(read, { timeoutMs: 15_000, intervalMs: 150 });

const orderState = async (orderId: string, status: number) =>
  (await sql()<{ status: number }[]>`select status from public.orders where id = ${orderId}`)[0]
    ?.status === status
    ? true
    : null;

const label = () => `buy${crypto.randomUUID().slice(0, 8)}`;

/** The stack's DNS adapter with its createZone replaced by one that may call the adapter's own. */
function dnsWith(createZone: (sandbox: DnsProvider, name: string) => Promise<DnsZone>) {
  return (): DnsProvider => {
    const sandbox = sandboxDnsOf(env);
    return {
      name: sandbox.name,
      createZone: (name) => createZone(sandbox, name),
      getZone: (id) => sandbox.getZone(id),
      findZone: (name) => sandbox.findZone(name),
      deleteZone: (id) => sandbox.deleteZone(id),
      putRecord: (zone, record) => sandbox.putRecord(zone, record),
    };
  };
}

/**
 * `run` with the stack's own worker (its cron job) paused, so the test's worker takes a name.
 * A kick pg_cron started just before the pause may still reach the stack's worker: `run` waits
 * until the job has no run going and pg_net has the answer to every request asked of it so far.
 */
async function withoutCronWorker<T>(run: () => Promise<T>): Promise<T> {
  await sql()`update cron.job set active = false where jobname = 'domain-purchase'`;
  try {
    await eventually(async () => {
      const [going] = await sql()`
        select 1 from cron.job_run_details d join cron.job j on j.jobid = d.jobid
        where j.jobname = 'domain-purchase' and d.status in ('starting', 'running')`;
      return going ? null : true;
    });
    const [sequence] = await sql()<{ last: string }[]>`
      select last_value::text as last from net.http_request_queue_id_seq`;
    const last = sequence!.last;
    await eventually(async () => {
      const [answered] = await sql()`
        select 1 where not exists (select 1 from net.http_request_queue)
          and (${last}::bigint <= 1 or exists (
            select 1 from net._http_response where id >= ${last}::bigint))`;
      return answered ? true : null;
    });
    return await run();
  } finally {
    await sql()`update cron.job set active = true where jobname = 'domain-purchase'`;
  }
}

Deno.test('domain-purchase: search, cart, checkout, registration and renewals', async (t) => {
  try {
    const buyer = await newUser();
    const name = label();

    await t.step(
      'search: every active TLD with its status and price; bad names refused',
      async () => {
        await control.markTaken(`${name}.net`);
        await addToCart(buyer.id, `${name}.io`);
        const found = await call(buyer.auth, 'GET', `/search?name=${name.toUpperCase()}.com`);
        assert.equal(found.status, 200, JSON.stringify(found.body));
        assert.equal(found.body.name, name);
        const byTld = Object.fromEntries(
          // deno-lint-ignore no-explicit-any -- the answer's rows
          found.body.results.map((row: any) => [row.tld, row]),
        );
        assert.equal(byTld.com.status, 'available');
        assert.equal(byTld.net.status, 'taken');
        assert.equal(byTld.io.status, 'in cart');
        assert.equal(byTld.com.yearly_amount, 1299);
        for (const bad of ['', '-x', 'a_b', 'x'.repeat(64)]) {
          const refused = await call(buyer.auth, 'GET', `/search?name=${encodeURIComponent(bad)}`);
          assert.equal(refused.status, 422, bad);
          assert.ok(refused.body.errors.name[0]);
        }
        const guest = await call(`Bearer ${env.SUPABASE_ANON_KEY}`, 'GET', `/search?name=${name}`);
        assert.equal(guest.status, 401);
      },
    );

    await t.step(
      'checkout: an empty cart, a taken name, a bad billing type are refused',
      async () => {
        const empty = await newUser();
        const none = await call(empty.auth, 'POST', '/checkout', {});
        assert.equal(none.status, 422);
        assert.equal(none.body.message, CART_EMPTY);
        await control.markTaken(`${name}.io`);
        const taken = await call(buyer.auth, 'POST', '/checkout', {});
        assert.equal(taken.status, 422);
        assert.match(taken.body.message, new RegExp(`${name}\\.io`));
        await control.markFree(`${name}.io`);
        assert.equal(
          (await call(buyer.auth, 'POST', '/checkout', { billing_type: 7 })).status,
          422,
        );
        const [orders] = await sql()<{ count: number }[]>`
        select count(*)::int from public.orders o join public.profiles p
          on p.personal_account_id = o.account_id where p.id = ${buyer.id}`;
        assert.equal(orders!.count, 0, 'nothing written by a refused checkout');
      },
    );

    let first: { orderId: string; sessionId: string; paymentUrl: string };
    await t.step('checkout: an order (16 authorizing) and a Stripe checkout for it', async () => {
      await sql()`update public.cart_items set years = 2 where domain = ${`${name}.io`}`;
      const answer = await call(buyer.auth, 'POST', '/checkout', {});
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      first = {
        orderId: answer.body.order_id,
        sessionId: answer.body.checkout.transaction_id,
        paymentUrl: answer.body.checkout.payment_url,
      };
      const [order] = await sql()<{ status: number; amount: string; billing_id: string }[]>`
        select status, amount::text, billing_id from public.orders where id = ${first.orderId}`;
      assert.equal(order!.status, 16);
      assert.equal(order!.billing_id, first.sessionId);
      // .io at 44.99 a year, two years; the free plan gives no discount.
      assert.equal(order!.amount, '8998');
    });

    await t.step(
      'a declined card leaves the order authorizing; a new checkout cancels it',
      async () => {
        const declined = await pay(first.paymentUrl, '4000 0000 0000 0002');
        assert.notEqual(declined.status, 303);
        assert.equal(await orderState(first.orderId, 16), true);
        const again = await call(buyer.auth, 'POST', '/checkout', {});
        assert.equal(again.status, 200);
        assert.equal(await orderState(first.orderId, 49), true);
        first = {
          orderId: again.body.order_id,
          sessionId: again.body.checkout.transaction_id,
          paymentUrl: again.body.checkout.payment_url,
        };
      },
    );

    await t.step('paid: processing, then registered, verified by DNS, with its zone', async () => {
      const paid = await pay(first.paymentUrl, '4242 4242 4242 4242');
      assert.equal(
        paid.headers.get('location'),
        `http://localhost:45173/app/shopping-cart/success?session_id=${first.sessionId}`,
      );
      await eventually(async () => {
        await work();
        return orderState(first.orderId, 48);
      });
      const [domain] = await sql()<{ verification_status: string; kind: string }[]>`
        select d.verification_status, d.kind from public.domains d
        where d.domain = ${`${name}.io`}`;
      assert.deepEqual(domain, { verification_status: 'verified', kind: 'branded' });
      const [purchased] = await sql()<{ status: string }[]>`
        select status from public.purchased_domains where order_id = ${first.orderId}`;
      assert.equal(purchased!.status, 'registered');
      const held = await control.domain(`${name}.io`);
      const years = (Date.parse(held!.expireDate) - Date.now()) / (365 * 86_400_000);
      assert.ok(years > 1.9 && years < 2.1, `registered for two years (${held!.expireDate})`);
      assert.deepEqual(held!.nameservers, ['ada.ns.sandbox.localhost', 'bob.ns.sandbox.localhost']);
      const [zone] = await sql()<{ status: string }[]>`
        select status from public.dns_zones where name = ${`${name}.io`}`;
      assert.equal(zone!.status, 'active');
      const [cart] = await sql()<{ count: number }[]>`
        select count(*)::int from public.cart_items i
        join public.shopping_carts c on c.id = i.cart_id where c.user_id = ${buyer.id}`;
      assert.equal(cart!.count, 0, 'the bought names left the cart');
      const [subscription] = await sql()<{ type: string; amount: string }[]>`
        select s.type, s.amount::text from public.subscriptions s
        join public.purchased_domains d on d.billing_subscription_id = s.billing_id
        where d.order_id = ${first.orderId}`;
      assert.deepEqual(subscription, { type: 'shopping-cart', amount: '4499' });
    });

    const renewSubscription = async (subscriptionId: string, outcome: 'paid' | 'failed') => {
      const answer = await fetch(
        `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${subscriptionId}/renew`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ outcome }),
        },
      );
      assert.equal(answer.status, 200, await answer.text());
    };
    const renew = async (outcome: 'paid' | 'failed') => {
      const [row] = await sql()<{ billing_subscription_id: string }[]>`
        select billing_subscription_id from public.purchased_domains
        where order_id = ${first.orderId}`;
      await renewSubscription(row!.billing_subscription_id, outcome);
    };
    const purchasedStatus = async (status: string) =>
      (
        await sql()<{ status: string }[]>`
          select status from public.purchased_domains where order_id = ${first.orderId}`
      )[0]?.status === status
        ? true
        : null;
    const expiry = async () => (await control.domain(`${name}.io`))!.expireDate;

    await t.step('a paid renewal invoice renews the name at the registrar', async () => {
      const before = await expiry();
      await renew('paid');
      await eventually(async () => {
        await work();
        return (await expiry()) !== before ? purchasedStatus('registered') : null;
      });
      const [renewal] = await sql()<{ status: number; purchase_source: string }[]>`
        select status, purchase_source from public.orders
        where account_id = (select personal_account_id from public.profiles where id = ${buyer.id})
          and purchase_source = 'domain-renewal'`;
      assert.deepEqual(renewal, { status: 48, purchase_source: 'domain-renewal' });
      const [row] = await sql()<{ expires_at: Date }[]>`
        select expires_at from public.purchased_domains where order_id = ${first.orderId}`;
      assert.equal(row!.expires_at.toISOString().slice(0, 10), (await expiry()).slice(0, 10));
    });

    const stripe = async (path: string, method = 'GET') => {
      const answer = await fetch(`${env.STRIPE_API_BASE}/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}` },
      });
      // deno-lint-ignore no-explicit-any -- Stripe's objects, read field by field
      const body = (await answer.json()) as Record<string, any>;
      assert.equal(answer.status, 200, JSON.stringify(body));
      return body;
    };
    const mailsTo = async (to: string) => {
      const list = await fetch(`${env.MAILBOX_URL}/api/v1/search?query=to:${to}`);
      return ((await list.json()) as { messages: { Subject: string }[] }).messages;
    };
    const notified = async () =>
      (
        await sql()<{ title: string }[]>`
          select title from public.notifications where user_id = ${buyer.id}
            and type = 'domain.renewal_failed' order by created_at`
      ).map((row) => row.title);

    await t.step(
      'the registrar refusing a paid renewal refunds it, then tells the owner so',
      async () => {
        await control.failNext({ operation: 'renew', domainName: `${name}.io`, error: 'payment' });
        await renew('paid');
        await eventually(async () => {
          await work();
          return (await notified()).length === 1 ? true : null;
        });
        assert.equal(await purchasedStatus('renewal_failed'), true);
        // The renewal's own invoice gave the name's price back, once; its order is refunded.
        const [renewal] = await sql()<
          { status: number; billing_id: string; amount: string; refunded: string; reason: string }[]
        >`
          select o.status, o.billing_id, o.amount::text, i.refunded_amount::text as refunded,
            i.refund_reason as reason
          from public.orders o join public.order_items i on i.order_id = o.id
          where o.account_id = (select personal_account_id from public.profiles
              where id = ${buyer.id})
            and o.purchase_source = 'domain-renewal'
          order by o.created_at desc limit 1`;
        assert.equal(renewal!.status, 51);
        assert.equal(renewal!.refunded, renewal!.amount);
        assert.match(renewal!.reason, /registrar refused the renewal.*was refunded/);
        const payments = await stripe(`invoice_payments?invoice=${renewal!.billing_id}`);
        const intent = payments.data[0].payment.payment_intent;
        const events = await stripe('events?type=charge.refunded&limit=100');
        // deno-lint-ignore no-explicit-any -- the event list's rows
        const charge = events.data.find((e: any) => e.data.object.payment_intent === intent);
        assert.equal(charge?.data.object.amount_refunded, Number(renewal!.amount));
        const [row] = await sql()<{ body: string }[]>`
          select body from public.notifications where user_id = ${buyer.id}
            and type = 'domain.renewal_failed'`;
        assert.match(row!.body, /The renewal payment was refunded\./);
        const mails = await mailsTo(buyer.email);
        assert.equal(mails.length, 1);
      },
    );

    await t.step(
      'a failed renewal payment notifies the owner by notification and mail',
      async () => {
        // A paid renewal the registrar takes clears the state; then the next payment fails.
        await renew('paid');
        await eventually(async () => {
          await work();
          return purchasedStatus('registered');
        });
        await renew('failed');
        await eventually(async () => {
          await work();
          return (await notified()).length === 2 ? true : null;
        });
        assert.equal(await purchasedStatus('renewal_failed'), true);
        assert.deepEqual(await notified(), [
          `The renewal of ${name}.io failed`,
          `The renewal of ${name}.io failed`,
        ]);
        const subjects = (await mailsTo(buyer.email)).map((m) => m.Subject);
        assert.equal(subjects.length, 2);
        assert.match(subjects[0]!, /was not renewed/);
      },
    );

    /** What Stripe refunded of the order's first payment (charge.refunded events). */
    const refundedAtStripe = async (orderId: string) => {
      const [invoice] = await sql()<{ billing_id: string }[]>`
        select billing_id from public.invoices where order_id = ${orderId}
        order by created_at limit 1`;
      const payments = await stripe(`invoice_payments?invoice=${invoice!.billing_id}`);
      const intent = payments.data[0].payment.payment_intent;
      const events = await stripe('events?type=charge.refunded&limit=100');
      // deno-lint-ignore no-explicit-any -- the event list's rows
      const charge = events.data.find((e: any) => e.data.object.payment_intent === intent);
      return (charge?.data.object.amount_refunded as number | undefined) ?? 0;
    };
    const buy = async (domains: string[]) => {
      const buyer = await newUser();
      for (const domain of domains) await addToCart(buyer.id, domain);
      const answer = await call(buyer.auth, 'POST', '/checkout', {});
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return {
        buyer,
        orderId: answer.body.order_id as string,
        sessionId: answer.body.checkout.transaction_id as string,
        paymentUrl: answer.body.checkout.payment_url as string,
      };
    };
    const subscriptionOf = async (orderId: string) =>
      (
        await sql()<{ id: string }[]>`
          select billing_subscription_id as id from public.purchased_domains
          where order_id = ${orderId} limit 1`
      )[0]!.id;
    const names = async (orderId: string) =>
      await sql()<
        {
          domain: string;
          status: string;
          problem: string | null;
          refund_amount: string | null;
          refunded_at: Date | null;
          refund_id: string | null;
          domain_id: string | null;
        }[]
      >`
        select domain, status, problem, refund_amount::text, refunded_at, refund_id, domain_id
        from public.purchased_domains where order_id = ${orderId} order by domain`;

    /** The name's zone as we list it, as the row keeps it, and as the DNS sandbox holds it. */
    /** A name bought and paid while the registrar cannot be reached: it waits, registering. */
    const paidWhileRegistrarUnreachable = async (name: string) => {
      await control.failNext({ operation: 'register', domainName: name, error: 'unreachable' });
      const order = await buy([name]);
      await pay(order.paymentUrl, '4242 4242 4242 4242');
      await eventually(async () => {
        await work();
        const [row] = await names(order.orderId);
        return row?.status === 'registering' && row.problem === 'Waiting for the registrar.'
          ? true
          : null;
      });
      return order;
    };
    const zoneOf = async (domain: string) => {
      const [listed] = await sql()<{ zone_id: string; nameservers: string[] }[]>`
        select zone_id, nameservers from public.dns_zones where name = ${domain}`;
      const [row] = await sql()<{ zone_id: string | null }[]>`
        select zone_id from public.purchased_domains where domain = ${domain}
        order by created_at desc limit 1`;
      const held = await fetch(`${env.SUPABASE_URL}/sandbox/dns/zones`, {
        headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
      });
      const { zones } = (await held.json()) as { zones: string[] };
      return { listed: listed ?? null, kept: row?.zone_id ?? null, held: zones.includes(domain) };
    };

    await t.step(
      'the registrar unreachable at first: the next attempt registers with the same zone',
      async () => {
        const name = `${label()}.com`;
        const order = await paidWhileRegistrarUnreachable(name);
        const first = await zoneOf(name);
        assert.ok(first.held, 'the zone made before the registrar was asked');
        // As if the registrar's wait were over: the next attempt's outcome.
        await sql()`
          update public.purchased_domains set locked_until = null
          where order_id = ${order.orderId}`;
        const row = await eventually(async () => {
          await work();
          const [row] = await names(order.orderId);
          return row?.problem === 'Waiting for the registrar.' ? null : row;
        });
        assert.equal(row.status, 'registered', String(row.problem));
        const after = await zoneOf(name);
        assert.ok(after.listed && after.held);
        assert.equal(after.kept, first.kept, 'one zone, the first attempt’s');
        assert.equal(after.listed.zone_id, first.kept);
        assert.deepEqual((await control.domain(name))?.nameservers, after.listed.nameservers);
      },
    );

    /** The paid name's row once the worker has tried it with `problem` left for a later try. */
    const waiting = (orderId: string, problem: string, runWorker: () => Promise<unknown>) =>
      eventually(async () => {
        await runWorker();
        const [row] = await names(orderId);
        return row?.status === 'registering' && row.problem === problem ? row : null;
      });
    /** As if the row's wait were over, `attempts` claims into it: the next run may take it. */
    const dueAgain = async (orderId: string, attempts?: number) => {
      await sql()`
        update public.purchased_domains
        set locked_until = null, attempts = coalesce(${attempts ?? null}::int, attempts)
        where order_id = ${orderId}`;
    };

    await t.step(
      'a zone made at the provider but never recorded (a crash): the next attempt takes it',
      async () => {
        const name = `${label()}.com`;
        const created: string[] = [];
        // The first createZone makes the zone, then its answer is lost (the worker dies, or
        // the database cannot be reached, before the zone is recorded).
        const { work: crashingWork } = purchaseCaller(
          env,
          undefined,
          undefined,
          dnsWith(async (sandbox, zoneName) => {
            const zone = await sandbox.createZone(zoneName);
            created.push(zone.id);
            if (zoneName === name && created.length === 1)
              throw new Error(`crashed after creating ${zone.id}`);
            return zone;
          }),
        );
        const order = await buy([name]);
        const row = await withoutCronWorker(async () => {
          await pay(order.paymentUrl, '4242 4242 4242 4242');
          await waiting(order.orderId, 'The DNS zone could not be created.', crashingWork);
          assert.deepEqual(
            await zoneOf(name),
            { listed: null, kept: null, held: true },
            'made at the provider, recorded nowhere',
          );
          await dueAgain(order.orderId);
          return await eventually(async () => {
            await crashingWork();
            const [row] = await names(order.orderId);
            return row?.status === 'registering' ? null : row;
          });
        });
        assert.equal(row.status, 'registered', String(row.problem));
        assert.equal(created.length, 1, 'no second zone: the provider refused it');
        const zone = await zoneOf(name);
        assert.ok(zone.listed && zone.held);
        assert.equal(zone.kept, zone.listed.zone_id, 'the taken zone, kept on the row');
        assert.deepEqual((await control.domain(name))?.nameservers, zone.listed.nameservers);
        const [domain] = await sql()<{ verification_status: string }[]>`
          select verification_status from public.domains where domain = ${name}`;
        assert.equal(domain?.verification_status, 'verified', 'its records set in that zone');
      },
    );

    await t.step(
      'a zone that cannot be made on any attempt: the name fails after the last, refunded',
      async () => {
        const name = `${label()}.com`;
        const { work: failingWork } = purchaseCaller(
          env,
          undefined,
          undefined,
          dnsWith((sandbox, zoneName) =>
            zoneName === name
              ? Promise.reject(new DnsProviderError('The DNS sandbox answered 503', 502))
              : sandbox.createZone(zoneName),
          ),
        );
        const order = await buy([name]);
        await withoutCronWorker(async () => {
          await pay(order.paymentUrl, '4242 4242 4242 4242');
          await waiting(order.orderId, 'The DNS zone could not be created.', failingWork);
          // The next claim is the last one.
          await dueAgain(order.orderId, MAX_ATTEMPTS - 1);
          await eventually(async () => {
            await failingWork();
            return orderState(order.orderId, 51);
          });
        });
        const [row] = await names(order.orderId);
        assert.equal(row!.status, 'failed');
        assert.equal(
          row!.problem,
          'The DNS zone could not be created. The name was not registered.',
        );
        assert.equal(row!.refund_amount, '1299');
        assert.ok(row!.refunded_at && row!.refund_id?.startsWith('re_'));
        assert.equal(await refundedAtStripe(order.orderId), 1299);
        assert.equal(await control.domain(name), null, 'never asked of the registrar');
        const subscription = await subscriptionOf(order.orderId);
        assert.equal((await stripe(`subscriptions/${subscription}`)).status, 'canceled');
        assert.deepEqual(await zoneOf(name), { listed: null, kept: null, held: false });
      },
    );

    await t.step(
      'a zone of the name listed as staff’s: not taken; the name fails after the last attempt',
      async () => {
        const name = `${label()}.com`;
        // As the kiosk's zone screen makes it: listed, with no account.
        const staffZone = `sandbox_staff${crypto.randomUUID().slice(0, 8)}`;
        await sql()`
          insert into public.dns_zones (zone_id, name, status, nameservers)
          values (${staffZone}, ${name}, 'active', ${['ada.ns.sandbox.localhost']})`;
        try {
          const order = await buy([name]);
          await pay(order.paymentUrl, '4242 4242 4242 4242');
          const held =
            `The DNS zone could not be created: ${name} already has a zone in our DNS ` +
            `account, held for something else.`;
          await waiting(order.orderId, held, work);
          await dueAgain(order.orderId, MAX_ATTEMPTS - 1);
          await eventually(async () => {
            await work();
            return orderState(order.orderId, 51);
          });
          const [row] = await names(order.orderId);
          assert.equal(row!.status, 'failed');
          assert.equal(row!.problem, `${held} The name was not registered.`);
          assert.ok(row!.refunded_at);
          assert.equal(await refundedAtStripe(order.orderId), 1299);
          const zone = await zoneOf(name);
          assert.equal(zone.kept, null, 'the name never had the staff’s zone');
          const [listed] = await sql()<{ zone_id: string; account_id: string | null }[]>`
            select zone_id, account_id from public.dns_zones where name = ${name}`;
          assert.deepEqual(listed, { zone_id: staffZone, account_id: null }, 'left as it was');
        } finally {
          await sql()`delete from public.dns_zones where zone_id = ${staffZone}`;
        }
      },
    );

    await t.step(
      'the registrar refusing every name of a paid order: failed, refunded in full (51)',
      async () => {
        const other = `${label()}.com`;
        await control.failNext({ operation: 'register', domainName: other, error: 'unavailable' });
        const order = await buy([other]);
        await pay(order.paymentUrl, '4242 4242 4242 4242');
        await eventually(async () => {
          await work();
          return orderState(order.orderId, 51);
        });
        const [row] = await names(order.orderId);
        assert.equal(row!.status, 'failed');
        assert.match(row!.problem!, /not available/);
        assert.equal(row!.domain_id, null);
        assert.equal(row!.refund_amount, '1299');
        assert.ok(row!.refunded_at && row!.refund_id?.startsWith('re_'));
        const [item] = await sql()<{ refunded_amount: string; refund_reason: string }[]>`
          select refunded_amount::text, refund_reason from public.order_items
          where order_id = ${order.orderId}`;
        assert.equal(item!.refunded_amount, '1299');
        assert.match(item!.refund_reason, /not available/);
        assert.equal(await refundedAtStripe(order.orderId), 1299);
        const [domains] = await sql()<{ count: number }[]>`
          select count(*)::int from public.domains where domain = ${other}`;
        assert.equal(domains!.count, 0, 'nothing half-written');
        assert.equal(await control.domain(other), null);
        const subscription = await subscriptionOf(order.orderId);
        assert.equal((await stripe(`subscriptions/${subscription}`)).status, 'canceled');
        // The full refund reaches the invoice through the webhook.
        await eventually(async () => {
          const [invoice] = await sql()<{ status: string }[]>`
            select status from public.invoices where order_id = ${order.orderId}`;
          return invoice?.status === 'refunded' ? true : null;
        });
      },
    );

    await t.step(
      'one name of two refused: it alone is refunded, the renewal drops to the other',
      async () => {
        const kept = `${label()}.com`;
        const refused = `${label()}.com`;
        await control.failNext({ operation: 'register', domainName: refused, error: 'payment' });
        const order = await buy([kept, refused]);
        await pay(order.paymentUrl, '4242 4242 4242 4242');
        await eventually(async () => {
          await work();
          const rows = await names(order.orderId);
          return rows.some((row) => row.refunded_at) && rows.some((r) => r.status === 'registered')
            ? true
            : null;
        });
        assert.equal(await orderState(order.orderId, 48), true, 'the order stays paid');
        const byName = Object.fromEntries((await names(order.orderId)).map((r) => [r.domain, r]));
        assert.equal(byName[kept]!.status, 'registered');
        assert.equal(byName[refused]!.status, 'failed');
        assert.match(byName[refused]!.problem!, /payment/);
        assert.equal(byName[refused]!.refund_amount, '1299');
        assert.equal(await refundedAtStripe(order.orderId), 1299, 'one name of 2598 refunded');
        const subscriptionId = await subscriptionOf(order.orderId);
        const subscription = await stripe(`subscriptions/${subscriptionId}`);
        assert.equal(subscription.status, 'active');
        assert.equal(subscription.items.data[0].price.unit_amount, 1299);
        await eventually(async () => {
          const [row] = await sql()<{ amount: string }[]>`
            select amount::text from public.subscriptions where billing_id = ${subscriptionId}`;
          return row?.amount === '1299' ? true : null;
        });
        const [invoice] = await sql()<{ status: string }[]>`
          select status from public.invoices where order_id = ${order.orderId}`;
        assert.equal(invoice!.status, 'paid', 'a partial refund leaves the invoice paid');
        // The next yearly invoice bills the registered name only.
        await renewSubscription(subscriptionId, 'paid');
        const { latest_invoice: renewalInvoice } = await stripe(`subscriptions/${subscriptionId}`);
        await eventually(async () => {
          const [renewal] = await sql()<{ amount: string }[]>`
            select amount::text from public.orders
            where purchase_source = 'domain-renewal' and billing_id = ${renewalInvoice}`;
          return renewal?.amount === '1299' ? true : null;
        });
      },
    );

    await t.step(
      'a name added as a branded domain after checkout: failed with the reason, refunded',
      async () => {
        const name = `${label()}.com`;
        const order = await buy([name]);
        const squatter = await newUser();
        await sql()`
          insert into public.domains (domain, kind, account_id, verification_status)
          select ${name}, 'branded', personal_account_id, 'pending'
          from public.profiles where id = ${squatter.id}`;
        await pay(order.paymentUrl, '4242 4242 4242 4242');
        await eventually(async () => {
          await work();
          return orderState(order.orderId, 51);
        });
        const [row] = await names(order.orderId);
        assert.equal(row!.status, 'failed');
        assert.equal(
          row!.problem,
          `${name} was added as a branded domain by another account before its registration.`,
        );
        assert.ok(row!.refunded_at);
        assert.equal(await control.domain(name), null, 'not registered at the registrar');
        assert.equal(await refundedAtStripe(order.orderId), 1299);
      },
    );

    await t.step(
      'an abandoned checkout: the session expires, the order is cancelled, the cart kept',
      async () => {
        const name = `${label()}.com`;
        const order = await buy([name]);
        await stripe(`checkout/sessions/${order.sessionId}/expire`, 'POST');
        await eventually(() => orderState(order.orderId, 49));
        const [row] = await names(order.orderId);
        assert.equal(row!.status, 'cancelled');
        assert.equal(row!.refund_amount, null, 'nothing was paid, nothing to refund');
        const [cart] = await sql()<{ domain: string }[]>`
          select i.domain::text from public.cart_items i
          join public.shopping_carts c on c.id = i.cart_id where c.user_id = ${order.buyer.id}`;
        assert.equal(cart?.domain, name);
        const [event] = await sql()<{ processed: boolean }[]>`
          select processed_at is not null as processed from public.webhook_events
          where type = 'checkout.session.expired' and payload -> 'data' -> 'object' ->> 'id' = ${order.sessionId}`;
        assert.equal(event?.processed, true);
      },
    );

    /** What a refunded order leaves behind: its names, its lines, its subscription, its money. */
    const afterRefund = async (orderId: string) => ({
      names: [
        ...(await sql()<Record<string, unknown>[]>`
          select domain::text, status, problem, refund_amount, refund_id, refunded_at,
            domain_id, expires_at, updated_at
          from public.purchased_domains where order_id = ${orderId} order by domain`),
      ],
      refundedLines: (
        await sql()<{ refunded_amount: string }[]>`
          select refunded_amount::text from public.order_items where order_id = ${orderId}`
      ).map((line) => line.refunded_amount),
      subscription: (await stripe(`subscriptions/${await subscriptionOf(orderId)}`)).status,
      refundedAtStripe: await refundedAtStripe(orderId),
    });
    /** The worker has nothing left to do for the order's names. */
    /**
     * The order's invoice refunded in full at Stripe (as a customer's bank or Stripe's dashboard
     * would; the kiosk takes paid orders only): the webhook refunds the invoice, and so the order.
     */
    const refundAtStripe = async (orderId: string) => {
      const [invoice] = await sql()<{ billing_id: string }[]>`
        select billing_id from public.invoices where order_id = ${orderId}`;
      await billingDocumentsFromEnv().refundInvoice(invoice!.billing_id, 'requested_by_customer');
      await eventually(() => orderState(orderId, 51));
    };
    const settled = async (orderId: string) => {
      await work();
      const [row] = await sql()<{ due: boolean }[]>`
        select coalesce(bool_or(app.domain_work_due(d)), false) as due
        from public.purchased_domains d where d.order_id = ${orderId}`;
      return row!.due ? null : true;
    };
    const subscriptionCanceled = async (orderId: string) =>
      (await stripe(`subscriptions/${await subscriptionOf(orderId)}`)).status === 'canceled'
        ? true
        : null;

    await t.step(
      'staff refund a registered name’s order: never renewed, still branded, refunded once',
      async () => {
        const name = `${label()}.com`;
        const order = await buy([name]);
        await pay(order.paymentUrl, '4242 4242 4242 4242');
        await eventually(async () => {
          await work();
          return orderState(order.orderId, 48);
        });
        const refunded = await refundAsStaff(env, order.orderId);
        assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
        assert.equal(refunded.body.order.status, 51);
        await eventually(async () =>
          (await settled(order.orderId)) ? subscriptionCanceled(order.orderId) : null,
        );
        const state = await afterRefund(order.orderId);
        assert.equal(state.subscription, 'canceled', 'the yearly subscription bills no more');
        const [row] = state.names;
        assert.equal(row!.status, 'registered');
        assert.match(String(row!.problem), /refunded: .* is not renewed and expires on /);
        const [domain] = await sql()<{ kind: string; account_id: string }[]>`
          select kind, account_id from public.domains where id = ${row!.domain_id as string}`;
        assert.equal(domain!.kind, 'branded', 'the name stays the account’s branded domain');
        assert.ok(await control.domain(name), 'still registered at the registrar');
        // The staff refund alone: the worker gave nothing more back.
        assert.equal(state.refundedAtStripe, 1299);
        assert.equal(row!.refund_id, null);
        assert.deepEqual(state.refundedLines, ['0']);
        await eventually(async () => {
          const [stored] = await sql()<{ billing_status: string }[]>`
            select billing_status from public.subscriptions
            where billing_type = 1 and billing_id = ${await subscriptionOf(order.orderId)}`;
          return stored?.billing_status === 'canceled' ? true : null;
        });

        // The worker again, and again after a lost answer (the stop due once more): the
        // subscription is not cancelled twice, nothing else moves.
        await work();
        assert.deepEqual(await afterRefund(order.orderId), state);
        await sql()`
          update public.purchased_domains set renewal_stop = 'due'
          where order_id = ${order.orderId}`;
        await eventually(() => settled(order.orderId));
        const again = await afterRefund(order.orderId);
        assert.deepEqual({ ...again, names: [] }, { ...state, names: [] });
        assert.equal(again.names[0]!.status, 'registered');
        assert.equal(again.names[0]!.refund_id, null);
      },
    );

    await t.step(
      'refunded while its name is registering: the name is never registered, no 2nd refund',
      async () => {
        const name = `${label()}.com`;
        // The registrar cannot be reached at first: the paid name waits, registering.
        const order = await paidWhileRegistrarUnreachable(name);
        const zone = await zoneOf(name);
        assert.ok(zone.held, 'the zone made before the registrar was asked');
        // Refunded in full at Stripe meanwhile.
        await refundAtStripe(order.orderId);
        // As if the registrar's wait were over: the worker may take the name at once.
        await sql()`
          update public.purchased_domains set locked_until = null
          where order_id = ${order.orderId}`;
        await eventually(() => settled(order.orderId));
        const [row] = (await afterRefund(order.orderId)).names;
        assert.equal(row!.status, 'cancelled');
        assert.equal(
          row!.problem,
          `The order was refunded before ${name} was registered: it is not registered.`,
        );
        assert.equal(row!.domain_id, null);
        assert.equal(row!.refund_amount, null, 'the full refund paid it back');
        assert.equal(await control.domain(name), null, 'not registered at the registrar');
        assert.deepEqual(await zoneOf(name), { listed: null, kept: null, held: false }, 'no zone');
        await eventually(() => subscriptionCanceled(order.orderId));
        const state = await afterRefund(order.orderId);
        assert.equal(state.refundedAtStripe, 1299, 'refunded once, in full');
        assert.deepEqual(state.refundedLines, ['0']);

        await work();
        assert.deepEqual(await afterRefund(order.orderId), state);
        assert.equal(await control.domain(name), null);
      },
    );

    await t.step(
      'refunded during the registrar’s call: registered there, and the row says so, until when',
      async () => {
        const name = `${label()}.com`;
        const order = await buy([name]);
        // The order is refunded in full at the moment the worker asks the registrar, after the
        // worker's last look at it: the refund's trigger cancels the name, the registrar then
        // registers it all the same.
        let refundedMidCall = false;
        const { work: workRefundingMidCall } = purchaseCaller(env, undefined, () => {
          const registrar = registrarFromEnv();
          return {
            checkAvailability: registrar.checkAvailability.bind(registrar),
            renew: registrar.renew.bind(registrar),
            register: async (request) => {
              if (request.domainName === name && !refundedMidCall) {
                await refundAtStripe(order.orderId);
                refundedMidCall = true;
              }
              return registrar.register(request);
            },
          };
        });
        // The stack's own worker would race this one for the name.
        await withoutCronWorker(async () => {
          await pay(order.paymentUrl, '4242 4242 4242 4242');
          await eventually(async () => {
            const [row] = await names(order.orderId);
            return row?.status === 'registering' ? true : null;
          });
          await eventually(async () => {
            await workRefundingMidCall();
            return refundedMidCall ? true : null;
          });
          await eventually(() => settled(order.orderId));
        });
        const registered = await control.domain(name);
        assert.ok(registered, 'the registrar registered it');
        const [row] = await sql()<
          { status: string; problem: string; domain_id: string | null; expires: string }[]
        >`
          select status, problem, domain_id, to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD')
            as expires
          from public.purchased_domains where order_id = ${order.orderId}`;
        assert.equal(row!.status, 'cancelled');
        assert.equal(row!.domain_id, null, 'not made the account’s branded domain');
        assert.equal(row!.expires, registered.expireDate.slice(0, 10));
        assert.equal(
          row!.problem,
          `The order was refunded while ${name} was being registered: the registrar registered` +
            ` it until ${row!.expires}. It is not the customer's and is not renewed.`,
        );
        await eventually(() => subscriptionCanceled(order.orderId));
        const state = await afterRefund(order.orderId);
        assert.equal(state.refundedAtStripe, 1299, 'refunded once, in full');
        assert.deepEqual(state.refundedLines, ['0']);
      },
    );

    await t.step('only the service role runs the worker', async () => {
      assert.equal((await call(buyer.auth, 'POST', '/process')).status, 403);
    });
  } finally {
    await closeSql();
  }
});
