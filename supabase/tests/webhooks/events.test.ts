import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, createUser, one, useDatabase, withRollback } from '../support/index.ts';
import { createDomain, createLink } from '../links/fixtures.ts';

/**
 * Which events the database queues: one delivery per subscribed, enabled endpoint of the
 * account, with a payload of the event's type; clicks wait in a buffer and leave as one
 * `link.clicked` event per endpoint and flush. Nothing is sent here (the rows roll back).
 */
const pool = useDatabase();

interface Scene {
  userId: string;
  accountId: string;
  domainId: string;
  endpoint: (events: string[], options?: { enabled?: boolean }) => Promise<string>;
  deliveries: () => Promise<{ endpoint_id: string; event_type: string; payload: Payload }[]>;
}

interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

async function withScene(run: (db: pg.PoolClient, scene: Scene) => Promise<void>) {
  await withRollback(pool, async (db) => {
    const user = await createUser(db);
    await db.query(`update public.accounts set features = array['webhooks'] where id = $1`, [
      user.personalAccountId,
    ]);
    const domain = await createDomain(db);
    await run(db, {
      userId: user.id,
      accountId: user.personalAccountId,
      domainId: domain.id,
      endpoint: async (events, options = {}) =>
        (
          await one<{ id: string }>(
            db,
            `insert into public.webhook_endpoints (account_id, url, events, enabled)
             values ($1, 'https://hooks.example.com/in', $2, $3) returning id`,
            [user.personalAccountId, events, options.enabled ?? true],
          )
        ).id,
      deliveries: () =>
        all(
          db,
          `select endpoint_id, event_type, payload from public.webhook_deliveries
           where account_id = $1 order by created_at, event_type`,
          [user.personalAccountId],
        ),
    });
  });
}

describe('webhook events', () => {
  it('link created, updated and deleted go to the endpoints subscribed to each', () =>
    withScene(async (db, scene) => {
      const all3 = await scene.endpoint(['link.created', 'link.updated', 'link.deleted']);
      const createdOnly = await scene.endpoint(['link.created']);
      await scene.endpoint(['link.created'], { enabled: false });
      const link = await createLink(db, {
        accountId: scene.accountId,
        createdBy: scene.userId,
        domainId: scene.domainId,
      });
      await db.query(`update public.aliases set description = 'new' where id = $1`, [link.id]);
      await db.query(`update public.aliases set status = 'deleted' where id = $1`, [link.id]);
      // A deleted link changing again says nothing more.
      await db.query(`update public.aliases set description = 'later' where id = $1`, [link.id]);

      const deliveries = await scene.deliveries();
      expect(deliveries.map((d) => [d.event_type, d.endpoint_id]).sort()).toEqual(
        [
          ['link.created', all3],
          ['link.created', createdOnly],
          ['link.updated', all3],
          ['link.deleted', all3],
        ].sort(),
      );
      const updated = deliveries.find((d) => d.event_type === 'link.updated')!;
      expect(updated.payload).toMatchObject({
        type: 'link.updated',
        data: { id: link.id, alias: link.alias, description: 'new' },
      });
      expect(updated.payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const queued = await one<{ count: string }>(
        db,
        `select count(*) from pgmq.q_webhook_deliveries q
         where (q.message ->> 'delivery_id')::uuid in (
           select id from public.webhook_deliveries where account_id = $1)`,
        [scene.accountId],
      );
      expect(Number(queued.count)).toBe(4);
    }));

  it('an account whose plan lost webhooks queues nothing', () =>
    withScene(async (db, scene) => {
      await scene.endpoint(['link.created']);
      await db.query(`update public.accounts set features = '{}' where id = $1`, [scene.accountId]);
      await createLink(db, {
        accountId: scene.accountId,
        createdBy: scene.userId,
        domainId: scene.domainId,
      });
      expect(await scene.deliveries()).toEqual([]);
    }));

  it('clicks are batched per endpoint until the flush', () =>
    withScene(async (db, scene) => {
      const clicks = await scene.endpoint(['link.clicked']);
      await scene.endpoint(['link.created']);
      await db.query(`update app.webhook_settings set click_batch_size = 3`);
      const link = await createLink(db, {
        accountId: scene.accountId,
        createdBy: scene.userId,
        domainId: scene.domainId,
      });
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, country, device)
         select now() - make_interval(secs => n), $1, $2, 'DE', 'mobile'
         from generate_series(1, 5) as n`,
        [link.id, scene.accountId],
      );
      const before = await scene.deliveries();
      expect(before.filter((d) => d.event_type === 'link.clicked')).toEqual([]);

      await db.query('select app.flush_webhook_clicks()');
      const batches = (await scene.deliveries()).filter((d) => d.event_type === 'link.clicked');
      expect(batches.map((d) => d.endpoint_id)).toEqual([clicks, clicks]);
      expect(batches.map((d) => d.payload.data.count).sort()).toEqual([2, 3]);
      expect((batches[0]!.payload.data.clicks as unknown[])[0]).toMatchObject({
        link_id: link.id,
        country: 'DE',
        device: 'mobile',
      });
      // Flushed clicks are gone from the buffer.
      await db.query('select app.flush_webhook_clicks()');
      expect(
        (await scene.deliveries()).filter((d) => d.event_type === 'link.clicked'),
      ).toHaveLength(2);
    }));

  it('a finished bulk job and a verified domain are events too', () =>
    withScene(async (db, scene) => {
      const endpoint = await scene.endpoint(['bulk.completed', 'domain.verified']);
      const job = await one<{ id: string }>(
        db,
        `insert into public.bulk_jobs (account_id, created_by, domain_id, file_name, file_path, total)
         values ($1, $2::uuid, $3, 'links.csv', $2::text || '/links.csv', 2) returning id`,
        [scene.accountId, scene.userId, scene.domainId],
      );
      await db.query(
        `update public.bulk_jobs set status = 'completed', processed = 2, created = 2, finished_at = now()
         where id = $1`,
        [job.id],
      );
      const domain = await createDomain(db, {
        kind: 'branded',
        accountId: scene.accountId,
        verified: false,
      });
      await db.query(
        `update public.domains set verification_status = 'verified', verified_at = now()
         where id = $1`,
        [domain.id],
      );
      const deliveries = await scene.deliveries();
      expect(deliveries.map((d) => [d.event_type, d.endpoint_id]).sort()).toEqual([
        ['bulk.completed', endpoint],
        ['domain.verified', endpoint],
      ]);
      expect(deliveries.find((d) => d.event_type === 'bulk.completed')!.payload.data).toMatchObject(
        { id: job.id, status: 'completed', total: 2, created: 2, failed: 0 },
      );
      expect(
        deliveries.find((d) => d.event_type === 'domain.verified')!.payload.data,
      ).toMatchObject({ id: domain.id, domain: domain.domain });
    }));
});
