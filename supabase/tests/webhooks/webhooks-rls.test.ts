import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createUser,
  expectCoded,
  expectRefused,
  inSavepoint,
  one,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * Webhook endpoints, deliveries and attempts by actor: managers of an account (the settings
 * permission) whose plan has `webhooks` manage its endpoints, read its log, its secrets, and
 * send tests and replays; staff read endpoints and the log but never a secret; everyone else
 * sees nothing. Also the destination rule on endpoint URLs and its development exception.
 */
const pool = useDatabase();

type ActorName = Exclude<keyof Cast, 'organization' | 'team' | 'limitedRole' | 'supervisorRole'>;
const ACTORS: ActorName[] = [
  'owner',
  'orgUser',
  'supervisor',
  'teamAdmin',
  'member',
  'viewer',
  'stranger',
  'staff',
];
const MANAGERS: ActorName[] = ['owner', 'teamAdmin'];
const READERS: ActorName[] = [...MANAGERS, 'staff'];

interface Scene {
  cast: Cast;
  endpointId: string;
  deliveryId: string;
}

/** The cast's organization has webhooks; its team (inheriting them) has one endpoint and one delivery. */
async function withScene(run: (db: pg.PoolClient, scene: Scene) => Promise<void>) {
  await withRollback(pool, async (db) => {
    const cast = await createCast(db);
    await db.query(`update public.accounts set features = array['webhooks'] where id = $1`, [
      cast.organization.accountId,
    ]);
    const endpoint = await one<{ id: string }>(
      db,
      `insert into public.webhook_endpoints (account_id, url, events)
       values ($1, 'https://hooks.example.com/in', array['link.created']) returning id`,
      [cast.team.accountId],
    );
    const delivery = await one<{ id: string }>(
      db,
      `insert into public.webhook_deliveries (endpoint_id, account_id, event_type, payload)
       values ($1, $2, 'link.created', '{"type": "link.created"}') returning id`,
      [endpoint.id, cast.team.accountId],
    );
    await db.query(
      `insert into public.webhook_attempts (delivery_id, endpoint_id, account_id, succeeded,
         response_status, latency_ms) values ($1, $2, $3, false, 500, 12)`,
      [delivery.id, endpoint.id, cast.team.accountId],
    );
    await run(db, { cast, endpointId: endpoint.id, deliveryId: delivery.id });
  });
}

const ids = (rows: { id: unknown }[]) => rows.map((row) => String(row.id));

describe('webhook endpoints by actor', () => {
  for (const actor of ACTORS) {
    const reads = READERS.includes(actor);
    const manages = MANAGERS.includes(actor);
    it(`${actor}: ${reads ? 'reads' : 'does not see'} the endpoint and its log; ${manages ? 'manages' : 'cannot manage'} it`, () =>
      withScene(async (db, { cast, endpointId, deliveryId }) => {
        const userId = cast[actor].id;
        // Staff see every account's: other files' rows are left out.
        const account = cast.team.accountId;
        const seen = await asActor(db, userId, async (as) => ({
          endpoints: ids(
            await all(as, 'select id from public.webhook_endpoints where account_id = $1', [
              account,
            ]),
          ),
          deliveries: ids(
            await all(as, 'select id from public.webhook_deliveries where account_id = $1', [
              account,
            ]),
          ),
          attempts: (
            await all(as, 'select id from public.webhook_attempts where account_id = $1', [account])
          ).length,
        }));
        expect(seen).toEqual(
          reads
            ? { endpoints: [endpointId], deliveries: [deliveryId], attempts: 1 }
            : { endpoints: [], deliveries: [], attempts: 0 },
        );

        const updated = await asActor(db, userId, (as) =>
          as.query(`update public.webhook_endpoints set description = 'changed' where id = $1`, [
            endpointId,
          ]),
        );
        expect(updated.rowCount).toBe(manages ? 1 : 0);

        const secret = asActor(db, userId, (as) =>
          one<{ secret: string }>(as, 'select public.webhook_endpoint_secret($1) as secret', [
            endpointId,
          ]),
        );
        if (manages) {
          expect((await secret).secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
          const rotated = await asActor(db, userId, (as) =>
            one<{ secret: string }>(as, 'select public.rotate_webhook_secret($1) as secret', [
              endpointId,
            ]),
          );
          expect(rotated.secret).not.toBe((await secret).secret);
          const replayed = await asActor(db, userId, (as) =>
            one<{ status: string }>(as, 'select status from public.replay_webhook_delivery($1)', [
              deliveryId,
            ]),
          );
          expect(replayed.status).toBe('pending');
          const test = await asActor(db, userId, (as) =>
            one<{ event_type: string }>(as, 'select event_type from public.send_test_webhook($1)', [
              endpointId,
            ]),
          );
          expect(test.event_type).toBe('webhook.test');
        } else {
          await expectCoded(secret, 'webhook_endpoint_not_found');
          await expectCoded(
            asActor(db, userId, (as) =>
              as.query('select public.rotate_webhook_secret($1)', [endpointId]),
            ),
            'webhook_endpoint_not_found',
          );
          await expectCoded(
            asActor(db, userId, (as) =>
              as.query('select public.replay_webhook_delivery($1)', [deliveryId]),
            ),
            'webhook_endpoint_not_found',
          );
        }

        const deleted = await asActor(db, userId, (as) =>
          as.query('delete from public.webhook_endpoints where id = $1', [endpointId]),
        );
        expect(deleted.rowCount).toBe(manages ? 1 : 0);
      }));
  }

  it('the kiosk view shows endpoints and their failures to staff only', () =>
    withScene(async (db, { cast, endpointId }) => {
      await db.query(
        `update public.webhook_deliveries set status = 'failed' where endpoint_id = $1`,
        [endpointId],
      );
      const view = (userId: string) =>
        asActor(db, userId, (as) =>
          all<{ id: string; failed_deliveries: string; last_failure_at: Date | null }>(
            as,
            `select id, failed_deliveries, last_failure_at from public.kiosk_webhook_endpoints
             where account_id = $1`,
            [cast.team.accountId],
          ),
        );
      const [row] = await view(cast.staff.id);
      expect(row).toMatchObject({ id: endpointId, failed_deliveries: '1' });
      expect(row!.last_failure_at).toBeInstanceOf(Date);
      expect(await view(cast.owner.id)).toEqual([]);
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.kiosk_webhook_endpoints')),
      );
    }));

  it('anonymous visitors are refused every table and function', () =>
    withScene(async (db, { endpointId }) => {
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.webhook_endpoints')),
      );
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.webhook_deliveries')),
      );
      await expectRefused(
        asActor(db, null, (as) =>
          as.query('select public.webhook_endpoint_secret($1)', [endpointId]),
        ),
      );
    }));

  it('managers add endpoints to their own accounts only, and only with the plan feature', () =>
    withScene(async (db, { cast }) => {
      const add = (userId: string, accountId: string) =>
        asActor(db, userId, (as) =>
          as.query(
            `insert into public.webhook_endpoints (account_id, url, events)
             values ($1, 'https://hooks.example.com/new', array['link.clicked', 'link.created'])`,
            [accountId],
          ),
        );
      await add(cast.owner.id, cast.organization.accountId);
      await expectRefused(add(cast.member.id, cast.team.accountId));
      await expectRefused(add(cast.stranger.id, cast.team.accountId));
      // The owner's personal workspace has no plan with webhooks.
      await expectRefused(add(cast.owner.id, cast.owner.personalAccountId));
      // Columns the worker owns are not the user's to set.
      await expectRefused(
        asActor(db, cast.owner.id, (as) =>
          as.query(
            `update public.webhook_endpoints set disabled_reason = 'failing'
             where account_id = $1`,
            [cast.organization.accountId],
          ),
        ),
      );
      // Nobody outside the database reads the secrets table.
      await expectRefused(
        asActor(db, cast.owner.id, (as) => as.query('select * from app.webhook_secrets')),
      );
    }));
});

describe('endpoint URLs and the destination rule', () => {
  const insert = (db: pg.ClientBase, accountId: string, url: string) =>
    one<{ url: string }>(
      db,
      `insert into public.webhook_endpoints (account_id, url, events)
       values ($1, $2, array['link.created']) returning url`,
      [accountId, url],
    );

  it('outside development, private and loopback targets are refused; public ones are normalised', () =>
    withRollback(pool, async (db) => {
      await db.query('update app.webhook_settings set allow_private_destinations = false');
      const user = await createUser(db);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://10.1.2.3/hook',
        'http://[::1]/hook',
        'http://localhost/hook',
        'http://0x7f.1/hook',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        await expectCoded(
          inSavepoint(db, () => insert(db, user.personalAccountId, url)),
          'url_not_allowed',
        );
      }
      expect(
        (await insert(db, user.personalAccountId, 'HTTPS://Hooks.Example.COM:443/in')).url,
      ).toBe('https://hooks.example.com/in');
    }));

  it('the development setting lets loopback and private targets through, nothing else', () =>
    withRollback(pool, async (db) => {
      await db.query('update app.webhook_settings set allow_private_destinations = true');
      const user = await createUser(db);
      expect((await insert(db, user.personalAccountId, 'http://127.0.0.1:8080/hook')).url).toBe(
        'http://127.0.0.1:8080/hook',
      );
      await expectCoded(
        inSavepoint(db, () => insert(db, user.personalAccountId, 'ftp://127.0.0.1/hook')),
        'url_not_allowed',
      );
      await expectCoded(
        inSavepoint(db, () => insert(db, user.personalAccountId, 'http://user@127.0.0.1/')),
        'url_not_allowed',
      );
    }));
});
