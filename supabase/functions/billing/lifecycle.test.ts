import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import type Stripe from 'stripe';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { cardBillingFromEnv, stripeSdk } from '../_shared/billing/stripe.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import {
  hmacSha256Hex,
  until,
  useStackAsRuntimeEnv,
  userAuthorization,
} from '../_shared/testing.ts';
import { createStripeWebhookHandler } from '../stripe-webhook/handler.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { createBillingHandler } from './handler.ts';
import { NO_INTERVAL_DOWNGRADE, SAME_PLAN } from './lifecycle.ts';

/**
 * The lifecycle after checkout, called on the handler directly against the running stack: its
 * Stripe sandbox computes the prorations and runs the schedules, and delivers every event to
 * the stack's stripe-webhook function as Stripe would. Each transition is also replayed through
 * the webhook handler, 5 times and newest first, to show it has one effect.
 */
const env = useStackAsRuntimeEnv();
const billing = createBillingHandler({
  billing: cardBillingFromEnv,
  paddle: overlayBillingFromEnv,
  defaultBillingType: () => '1',
  db: sql,
  returnOrigins: () => 'http://localhost:*',
});
const webhook = createStripeWebhookHandler();
const stripe = stripeSdk(env.STRIPE_SECRET_KEY!, env.STRIPE_API_BASE);
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

async function call(authorization: string, method: string, path: string, body?: unknown) {
  const response = await billing(
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
  // deno-lint-ignore no-explicit-any -- the answers have several shapes; each step reads its own
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function newUser() {
  const { data, error } = await admin.auth.admin.createUser({
    email: `life-${crypto.randomUUID().slice(0, 8)}@functions.test`,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  const [profile] = await sql()<{ account: string }[]>`
    select personal_account_id as account from public.profiles where id = ${data.user.id}`;
  return {
    id: data.user.id,
    account: profile!.account,
    auth: await userAuthorization(env, data.user.id),
  };
}

const order = (subscription: string, interval: 'monthly' | 'yearly', extra = {}) => ({
  billing_type: 1,
  subscription,
  interval,
  currency: 'USD',
  type: 'default',
  trial: false,
  ...extra,
});

/** Subscribes through the sandbox's hosted checkout with a card; answers the checkout. */
async function subscribe(
  auth: string,
  plan: string,
  interval: 'monthly' | 'yearly',
  extra: Record<string, unknown> = {},
  card = '4242424242424242',
) {
  const answer = await call(auth, 'POST', '/new-subscription', order(plan, interval, extra));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const checkout = answer.body.checkout;
  const paid = await fetch(checkout.payment_url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(
      card ? { cardNumber: card, cardExpiry: '12 / 34', cardCvc: '123' } : {},
    ),
  });
  await paid.body?.cancel();
  assert.equal(paid.status, 303);
  await until(async () => {
    const status = await call(auth, 'GET', `/checkout/${checkout.transaction_id}`);
    return status.body.subscription;
  });
  return checkout;
}

async function rows(account: string) {
  return await sql()<
    {
      name: string;
      interval: string;
      billing_id: string;
      ends_at: Date | null;
      period_starts_at: Date | null;
      billing_status: string;
    }[]
  >`select name, interval, billing_id, ends_at, period_starts_at, billing_status
    from public.subscriptions where account_id = ${account} order by created_at`;
}

async function hasFeature(account: string, feature: string): Promise<boolean> {
  const [row] = await sql()<{ has: boolean }[]>`
    select app.account_has_feature(${account}, ${feature}) as has`;
  return row!.has;
}

/** Delivers each event 5 times, newest first, through the webhook handler. */
async function replay(events: Stripe.Event[]) {
  for (let round = 0; round < 5; round++) {
    for (const event of [...events].reverse()) {
      const body = JSON.stringify(event);
      const at = Math.floor(Date.now() / 1000);
      const response = await webhook(
        new Request('http://localhost/stripe-webhook', {
          method: 'POST',
          headers: {
            'stripe-signature': `t=${at},v1=${await hmacSha256Hex(env.STRIPE_WEBHOOK_SECRET!, `${at}.${body}`)}`,
          },
          body,
        }),
      );
      await response.body?.cancel();
      assert.equal(response.status, 200);
    }
  }
}

async function eventsAbout(id: string, since: number): Promise<Stripe.Event[]> {
  const events = await stripe.events.list({ limit: 100 });
  return events.data
    .filter((event) => event.created >= since && JSON.stringify(event.data.object).includes(id))
    .reverse();
}

async function sandbox(path: string, form: Record<string, string> = {}) {
  const response = await fetch(`${env.STRIPE_API_BASE}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  });
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();
}

const now = () => Math.floor(Date.now() / 1000) - 1;

Deno.test('billing lifecycle: upgrade, downgrade scheduled and cancelled, renewal', async (t) => {
  try {
    const user = await newUser();
    await subscribe(user.auth, 'pro', 'monthly');
    const [first] = await rows(user.account);
    assert.equal(first!.name, 'pro');
    assert.equal(await hasFeature(user.account, 'support_teams'), false);

    await t.step('the same plan and period is refused with 406', async () => {
      const same = await call(user.auth, 'PUT', '/settings/subscription', order('pro', 'monthly'));
      assert.equal(same.status, 406);
      assert.equal(same.body.message ?? same.body.error, SAME_PLAN);
    });

    await t.step('monthly to yearly: charged what Stripe prorates, at once', async () => {
      const preview = await call(
        user.auth,
        'GET',
        '/settings/subscription/preview?subscription=pro&interval=yearly&currency=USD',
      );
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      assert.equal(preview.body.change, 'upgrade');
      // A year of Pro less the unused month (nearly all of it: it just started).
      assert.ok(preview.body.amount_due >= 12900 - 1299 && preview.body.amount_due <= 12900 - 1290);
      const since = now();
      const updated = await call(
        user.auth,
        'PUT',
        '/settings/subscription',
        order('pro', 'yearly'),
      );
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.change, 'upgrade');
      assert.equal(updated.body.subscription.interval, 'yearly');
      assert.equal(updated.body.subscription.amount, 12900);
      const invoice = await until(async () => {
        const [row] = await sql()<{ amount: string }[]>`
          select amount::text from public.invoices
          where account_id = ${user.account} order by issued_at desc, created_at desc limit 1`;
        return row && Number(row.amount) !== 1299 ? row : null;
      });
      assert.equal(Number(invoice.amount), preview.body.amount_due);
      await replay(await eventsAbout(first!.billing_id, since));
      const after = await rows(user.account);
      assert.equal(after.length, 1);
      assert.equal(after[0]!.interval, 'yearly');
    });

    await t.step('an upgrade to Business brings its features as soon as it lands', async () => {
      const updated = await call(
        user.auth,
        'PUT',
        '/settings/subscription',
        order('business', 'yearly'),
      );
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.subscription.name, 'business');
      assert.equal(await hasFeature(user.account, 'support_teams'), true);
    });

    let scheduleId = '';
    await t.step('a downgrade is scheduled for the period end, features kept', async () => {
      const since = now();
      const answer = await call(user.auth, 'PUT', '/settings/subscription', order('pro', 'yearly'));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.change, 'downgrade');
      assert.equal(answer.body.subscription.name, 'business');
      assert.equal(answer.body.future.name, 'pro');
      assert.equal(answer.body.future.period_starts_at, answer.body.subscription.period_ends_at);
      assert.equal(await hasFeature(user.account, 'support_teams'), true);
      const events = await eventsAbout(first!.billing_id, since);
      assert.ok(events.some((event) => event.type === 'subscription_schedule.updated'));
      await replay(events);
      const future = (await rows(user.account)).filter((row) =>
        row.billing_id.startsWith('sub_sched_'),
      );
      assert.equal(future.length, 1);
      assert.equal(future[0]!.ends_at, null);
      scheduleId = future[0]!.billing_id;
    });

    await t.step(
      'the scheduled downgrade can be cancelled; replays do not bring it back',
      async () => {
        const since = now();
        const cancelled = await call(user.auth, 'DELETE', '/settings/subscription/scheduled');
        assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
        assert.equal(cancelled.body.future, null);
        const events = [
          ...(await eventsAbout(scheduleId, 0)),
          ...(await eventsAbout(first!.billing_id, since)),
        ];
        assert.ok(events.some((event) => event.type === 'subscription_schedule.released'));
        await replay(events);
        const [future] = (await rows(user.account)).filter((row) => row.billing_id === scheduleId);
        assert.ok(future!.ends_at, 'the released downgrade stays ended');
        const again = await call(user.auth, 'DELETE', '/settings/subscription/scheduled');
        assert.equal(again.status, 404);
      },
    );

    await t.step('a downgrade scheduled again takes over at the renewal', async () => {
      const answer = await call(user.auth, 'PUT', '/settings/subscription', order('pro', 'yearly'));
      assert.equal(answer.body.change, 'downgrade');
      await sandbox(`/_sandbox/subscriptions/${first!.billing_id}/renew`);
      await until(async () => {
        const [row] = await rows(user.account);
        return row!.name === 'pro' ? row : null;
      });
      // The sandbox's renewal jumps to the next period ahead of the wall clock: the row now
      // bills Pro's yearly price from then.
      const [price] = await sql()<{ name: string }[]>`
        select p.name from public.subscriptions s join public.plans p on p.id = s.plan_id
        where s.billing_id = ${first!.billing_id}`;
      assert.equal(price!.name, 'pro');
      const state = await call(user.auth, 'GET', '/settings/subscription');
      assert.equal(state.body.subscription.name, 'pro');
      assert.equal(state.body.future, null);
    });

    await t.step('yearly to monthly is refused where the plan forbids it', async () => {
      await sql()`update public.plans set allow_interval_downgrade = false where name = 'pro'`;
      try {
        const refused = await call(
          user.auth,
          'PUT',
          '/settings/subscription',
          order('pro', 'monthly'),
        );
        assert.equal(refused.status, 406);
        assert.equal(refused.body.message ?? refused.body.error, NO_INTERVAL_DOWNGRADE);
      } finally {
        await sql()`update public.plans set allow_interval_downgrade = true where name = 'pro'`;
      }
    });
  } finally {
    await closeSql();
  }
});

Deno.test('billing lifecycle: declined upgrade, cancel now, reactivate', async (t) => {
  try {
    const user = await newUser();
    const checkout = await subscribe(user.auth, 'pro', 'monthly');

    await t.step('an upgrade whose payment declines is a 402 and changes nothing', async () => {
      await sandbox(`/_sandbox/customers/${checkout.customer.id}/card`, { outcome: 'declined' });
      const refused = await call(
        user.auth,
        'PUT',
        '/settings/subscription',
        order('business', 'monthly'),
      );
      assert.equal(refused.status, 402);
      assert.equal(refused.body.message ?? refused.body.error, MESSAGES.paymentDeclined);
      const [row] = await rows(user.account);
      assert.equal(row!.name, 'pro');
    });

    await t.step('cancel now ends the plan at once', async () => {
      const ended = await call(user.auth, 'DELETE', '/settings/subscription/now', {
        billing_type: 1,
      });
      assert.equal(ended.status, 200, JSON.stringify(ended.body));
      assert.equal(ended.body.subscription.billing_status, 'canceled');
      assert.ok(new Date(ended.body.subscription.ends_at).getTime() <= Date.now());
      const resume = await call(user.auth, 'PUT', '/settings/subscription/resume');
      assert.equal(resume.status, 404);
    });

    await t.step('reactivate charges the card on file: declined first, then it works', async () => {
      const declined = await call(user.auth, 'PATCH', '/settings/subscription');
      assert.equal(declined.status, 402);
      await sandbox(`/_sandbox/customers/${checkout.customer.id}/card`, { outcome: 'succeeds' });
      const back = await call(user.auth, 'PATCH', '/settings/subscription');
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal(back.body.subscription.name, 'pro');
      assert.equal(back.body.subscription.ends_at, null);
      assert.equal(back.body.subscription.billing_status, 'active');
      const twice = await call(user.auth, 'PATCH', '/settings/subscription');
      assert.equal(twice.status, 406);
    });
  } finally {
    await closeSql();
  }
});

Deno.test('billing lifecycle: trials, coupons, eligibility, teams and organizations', async (t) => {
  try {
    await t.step(
      'a trial without a card where the plan does not force one, once per account',
      async () => {
        const user = await newUser();
        await sql()`update public.plans set force_payment_method = false where name = 'pro'`;
        try {
          const checkout = await subscribe(user.auth, 'pro', 'yearly', { trial: true }, '');
          const session = await stripe.checkout.sessions.retrieve(checkout.transaction_id);
          assert.equal(session.payment_status, 'no_payment_required');
        } finally {
          await sql()`update public.plans set force_payment_method = true where name = 'pro'`;
        }
        const [row] = await rows(user.account);
        assert.equal(row!.billing_status, 'trialing');
        await call(user.auth, 'DELETE', '/settings/subscription/now', { billing_type: 1 });
        // Reactivating an ended trial without a card on file: the payment page (402).
        assert.equal((await call(user.auth, 'PATCH', '/settings/subscription')).status, 402);
        const again = await call(
          user.auth,
          'POST',
          '/new-subscription',
          order('pro', 'yearly', { trial: true }),
        );
        const session = await stripe.checkout.sessions.retrieve(again.body.checkout.transaction_id);
        assert.equal(session.amount_total, 12900, 'no second trial');
      },
    );

    await t.step('coupon lookup, and a coupon taken off the checkout by Stripe', async () => {
      const code = `SAVE${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
      await sql()`insert into public.coupons (code, percent_off) values (${code}, 25)`;
      const user = await newUser();
      const found = await call(user.auth, 'GET', `/coupon/${code}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.percent_off, 25);
      assert.equal(found.body.amount_off, null);
      assert.equal((await call(user.auth, 'GET', '/coupon/NOSUCHCODE')).status, 404);
      const answer = await call(
        user.auth,
        'POST',
        '/new-subscription',
        order('pro', 'yearly', { coupon: code }),
      );
      assert.equal(answer.body.checkout.discount_code, code);
      const session = await stripe.checkout.sessions.retrieve(answer.body.checkout.transaction_id);
      assert.equal(session.amount_total, 12900 - Math.round(12900 * 0.25));
      // An unknown coupon is forgotten: full price, no discount.
      const other = await newUser();
      const plain = await call(
        other.auth,
        'POST',
        '/new-subscription',
        order('pro', 'yearly', { coupon: 'NOSUCHCODE' }),
      );
      assert.equal(plain.body.checkout.discount_code, null);
    });

    await t.step('a plan the account outgrew is refused with the spec message', async () => {
      const user = await newUser();
      const suffix = crypto.randomUUID().slice(0, 8);
      await sql()`
        with plan as (
          insert into public.plans (name, "group") values (${`solo-${suffix}`}, 'test') returning id
        )
        insert into public.plan_prices (plan_id, interval, amount, currency, options)
        select id, 'monthly', 500, 'USD', '{"max_teams": 0}' from plan`;
      const [team] = await sql()<{ id: string }[]>`
        insert into public.accounts (kind, owner_id, name) values ('team', ${user.id}, 'Solo team')
        returning id`;
      await sql()`insert into public.teams (account_id, slug, name) values (${team!.id}, ${`solo-${suffix}`}, 'Solo team')`;
      const refused = await call(
        user.auth,
        'POST',
        '/new-subscription',
        order(`solo-${suffix}`, 'monthly'),
      );
      assert.equal(refused.status, 422);
      assert.deepEqual(refused.body.errors, { subscription: [MESSAGES.notEligibleForPlan] });
    });

    await t.step("a team's admin manages its plan; a member may not", async () => {
      const owner = await newUser();
      const admin = await newUser();
      const member = await newUser();
      const slug = `team-${crypto.randomUUID().slice(0, 8)}`;
      const [account] = await sql()<{ id: string }[]>`
        insert into public.accounts (kind, owner_id, name) values ('team', ${owner.id}, 'Team')
        returning id`;
      const [team] = await sql()<{ id: string }[]>`
        insert into public.teams (account_id, slug, name) values (${account!.id}, ${slug}, 'Team')
        returning id`;
      await sql()`insert into public.team_members (team_id, user_id, role)
        values (${team!.id}, ${admin.id}, 'admin'), (${team!.id}, ${member.id}, 'member')`;
      const path = `/organization/_/team/${slug}/subscription`;
      assert.equal((await call(member.auth, 'GET', path)).status, 403);
      const checkout = await subscribe(admin.auth, 'pro', 'yearly', {
        organization: '_',
        team: slug,
      });
      assert.equal(
        checkout.success_url,
        `http://localhost:45173/app/organization/_/team/${slug}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
      );
      const state = await call(admin.auth, 'GET', path);
      assert.equal(state.body.subscription.name, 'pro');
      assert.equal((await call(member.auth, 'DELETE', path, { billing_type: 1 })).status, 403);
    });
    await t.step(
      'an organization owner subscribes the organization; a member may not',
      async () => {
        const owner = await newUser();
        const member = await newUser();
        const slug = `org-${crypto.randomUUID().slice(0, 8)}`;
        const [account] = await sql()<{ id: string }[]>`
        insert into public.accounts (kind, owner_id, name) values ('organization', ${owner.id}, 'Org')
        returning id`;
        const [organization] = await sql()<{ id: string }[]>`
        insert into public.organizations (account_id, slug, name) values (${account!.id}, ${slug}, 'Org')
        returning id`;
        const [role] = await sql()<{ id: string }[]>`
        insert into public.organization_roles (organization_id, name, permissions)
        values (${organization!.id}, 'Domains', '{domains}') returning id`;
        await sql()`insert into public.organization_users (organization_id, user_id, role_id)
        values (${organization!.id}, ${member.id}, ${role!.id})`;
        const refused = await call(
          member.auth,
          'POST',
          '/new-subscription',
          order('pro', 'yearly', { organization: slug }),
        );
        assert.equal(refused.status, 403);
        assert.equal(
          (await call(member.auth, 'GET', `/organization/${slug}/subscription`)).status,
          403,
        );
        const checkout = await subscribe(owner.auth, 'pro', 'yearly', { organization: slug });
        assert.equal(
          checkout.success_url,
          `http://localhost:45173/app/organizations/${slug}/settings/profile/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
        );
        const [row] = await rows(account!.id);
        assert.equal(row!.name, 'pro');
        assert.equal((await rows(owner.account)).length, 0, 'the personal account stays free');
        const [customer] =
          await sql()`select 1 from public.billing_customers where account_id = ${account!.id}`;
        assert.ok(customer, 'the organization has its own customer');
        const state = await call(owner.auth, 'GET', `/organization/${slug}/subscription`);
        assert.equal(state.body.subscription.name, 'pro');
        const cancelled = await call(owner.auth, 'DELETE', `/organization/${slug}/subscription`, {
          billing_type: 1,
        });
        assert.equal(cancelled.status, 200);
        assert.ok(cancelled.body.subscription.ends_at);
      },
    );
  } finally {
    await closeSql();
  }
});
