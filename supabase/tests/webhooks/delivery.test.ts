import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../../local/src/ports.ts';
import { createUser, one, uniqueSuffix } from '../support/index.ts';
import { createDomain, createLink } from '../links/fixtures.ts';
import { startReceiver } from './receiver.ts';

/**
 * Outgoing webhooks end to end on the running stack: database triggers queue the event, the
 * cron job wakes the webhook-deliver function, which signs and sends it to a receiver on
 * loopback (the local stack's development exception), then records the attempt. Retries use a
 * 0.5 s backoff base here (45 s in production).
 */
const env = inject('stackEnv');
const db = new pg.Pool({ connectionString: env.DB_URL, max: 4 });
db.on('error', () => {});
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let domainId = '';
const BASE_SECONDS = 0.5;

beforeAll(async () => {
  receiver = await startReceiver();
  await db.query(`update app.webhook_settings set retry_base_seconds = $1`, [BASE_SECONDS]);
  const client = await db.connect();
  try {
    domainId = (await createDomain(client)).id;
  } finally {
    client.release();
  }
});

afterAll(async () => {
  await db.query(`update app.webhook_settings set retry_base_seconds = 45, max_attempts = 12`);
  await receiver.close();
  await db.end();
});

interface Scene {
  userId: string;
  accountId: string;
  endpointId: string;
  secret: string;
  path: string;
}

/** An account with the webhooks feature and one endpoint at `path` on the receiver. */
async function scene(kind: string, events = ['link.created']): Promise<Scene> {
  const client = await db.connect();
  try {
    const user = await createUser(client);
    await client.query(`update public.accounts set features = array['webhooks'] where id = $1`, [
      user.personalAccountId,
    ]);
    const path = `/${kind}/${uniqueSuffix()}`;
    const endpoint = await one<{ id: string }>(
      client,
      `insert into public.webhook_endpoints (account_id, url, events) values ($1, $2, $3)
       returning id`,
      [user.personalAccountId, `${receiver.base}${path}`, events],
    );
    const { secret } = await one<{ secret: string }>(
      client,
      'select secret from app.webhook_secrets where endpoint_id = $1',
      [endpoint.id],
    );
    return {
      userId: user.id,
      accountId: user.personalAccountId,
      endpointId: endpoint.id,
      secret,
      path,
    };
  } finally {
    client.release();
  }
}

async function addLink(s: Scene): Promise<string> {
  const client = await db.connect();
  try {
    const link = await createLink(client, {
      accountId: s.accountId,
      createdBy: s.userId,
      domainId,
    });
    return link.alias;
  } finally {
    client.release();
  }
}

async function received(path: string, count: number, timeoutMs = 15_000) {
  await waitFor(
    `${count} request(s) at ${path}`,
    async () => receiver.at(path).length >= count,
    timeoutMs,
    50,
  );
  return receiver.at(path);
}

const attemptsOf = async (endpointId: string) =>
  (
    await db.query<{
      succeeded: boolean;
      response_status: number | null;
      latency_ms: number;
      error: string | null;
      message_id: string;
    }>(
      `select a.succeeded, a.response_status, a.latency_ms, a.error, d.message_id
       from public.webhook_attempts a join public.webhook_deliveries d on d.id = a.delivery_id
       where a.endpoint_id = $1 order by a.id`,
      [endpointId],
    )
  ).rows;

async function asUser<T>(userId: string, sql: string, values: unknown[]): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('begin');
    await client.query(
      `select set_config('role', 'authenticated', true),
              set_config('request.jwt.claims', $1, true)`,
      [JSON.stringify({ sub: userId, role: 'authenticated', aal: 'aal1' })],
    );
    const { rows } = await client.query(sql, values);
    await client.query('commit');
    return rows[0] as T;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

describe('webhook delivery', () => {
  it('a created link delivers a signed link.created event the standardwebhooks verifier accepts', async () => {
    const s = await scene('ok');
    const alias = await addLink(s);
    const [request] = await received(s.path, 1);
    const payload = new Webhook(s.secret).verify(request!.body, request!.headers) as {
      type: string;
      data: { alias: string; url: string };
    };
    expect(payload.type).toBe('link.created');
    expect(payload.data).toMatchObject({ alias, url: `https://example.com/${alias}` });
    expect(request!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // Another secret's verifier refuses it.
    expect(() =>
      new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(
        request!.body,
        request!.headers,
      ),
    ).toThrow();

    await waitFor(
      'the attempt row',
      async () => (await attemptsOf(s.endpointId)).length === 1,
      5_000,
      50,
    );
    const [logged] = await attemptsOf(s.endpointId);
    expect(logged).toMatchObject({
      succeeded: true,
      response_status: 204,
      error: null,
      message_id: request!.headers['webhook-id'],
    });
    expect(logged!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('a receiver answering 500 gets retries with growing gaps, then one recorded success', async () => {
    const s = await scene('fail/3');
    await addLink(s);
    const requests = await received(s.path, 4, 30_000);
    const gaps = requests.slice(1).map((each, index) => each.at - requests[index]!.at);
    // Retry n waits at least base * 2^(n-1).
    gaps.forEach((gap, index) => {
      expect(gap).toBeGreaterThanOrEqual(BASE_SECONDS * 1000 * 2 ** index - 50);
    });
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    expect(new Set(requests.map((each) => each.headers['webhook-id'])).size).toBe(1);

    await waitFor(
      '4 attempts',
      async () => (await attemptsOf(s.endpointId)).length >= 4,
      5_000,
      50,
    );
    // Nothing more arrives after the success.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(receiver.at(s.path)).toHaveLength(4);
    const attempts = await attemptsOf(s.endpointId);
    expect(attempts.map((each) => [each.succeeded, each.response_status])).toEqual([
      [false, 500],
      [false, 500],
      [false, 500],
      [true, 204],
    ]);
    const delivery = await one<{ status: string; attempts: number }>(
      db,
      `select status, attempts from public.webhook_deliveries where endpoint_id = $1`,
      [s.endpointId],
    );
    expect(delivery).toEqual({ status: 'succeeded', attempts: 4 });
  });

  it('replay from the log resends the same webhook-id, freshly signed', async () => {
    const s = await scene('ok');
    await addLink(s);
    const [first] = await received(s.path, 1);
    const delivery = await one<{ id: string }>(
      db,
      `select id from public.webhook_deliveries where endpoint_id = $1`,
      [s.endpointId],
    );
    await waitFor(
      'the first attempt',
      async () => (await attemptsOf(s.endpointId)).length === 1,
      5_000,
      50,
    );
    await asUser(s.userId, 'select * from public.replay_webhook_delivery($1)', [delivery.id]);
    const [, second] = await received(s.path, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(() => new Webhook(s.secret).verify(second!.body, second!.headers)).not.toThrow();
  });

  it('the last failed attempt disables the endpoint and tells the account owner', async () => {
    await db.query(`update app.webhook_settings set max_attempts = 2`);
    try {
      const s = await scene('down');
      await addLink(s);
      await received(s.path, 2);
      await waitFor(
        'the endpoint disabled',
        async () =>
          (
            await one<{ enabled: boolean }>(
              db,
              'select enabled from public.webhook_endpoints where id = $1',
              [s.endpointId],
            )
          ).enabled === false,
        5_000,
        50,
      );
      const notification = await one<{ type: string; data: { endpoint_id: string } }>(
        db,
        `select type, data from public.notifications where user_id = $1`,
        [s.userId],
      );
      expect(notification).toMatchObject({
        type: 'webhook.endpoint_disabled',
        data: { endpoint_id: s.endpointId },
      });
      const delivery = await one<{ status: string }>(
        db,
        `select status from public.webhook_deliveries where endpoint_id = $1`,
        [s.endpointId],
      );
      expect(delivery.status).toBe('failed');
      // A test event to a disabled endpoint is refused until it is enabled again.
      await expect(
        asUser(s.userId, 'select * from public.send_test_webhook($1)', [s.endpointId]),
      ).rejects.toThrow('webhook_endpoint_disabled');
    } finally {
      await db.query(`update app.webhook_settings set max_attempts = 12`);
    }
  });
});
