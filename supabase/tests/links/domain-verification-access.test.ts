import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createUser,
  expectCoded,
  expectProtectedColumn,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { givePlan, LINK_FEATURES } from './fixtures.ts';

/**
 * Domain verification by actor: a new domain starts its window whatever its owner sends; the
 * state is the verifier's (owners read it, never write it); a domain's managers may start a
 * failed verification again, nobody else.
 */
const pool = useDatabase();

interface Verification {
  id: string;
  verification_status: string;
  verification_deadline: Date | null;
  verification_next_check_at: Date | null;
  verification_problem: string | null;
}

const COLUMNS = `id, verification_status, verification_deadline, verification_next_check_at,
  verification_problem`;

describe('domain verification by actor', () => {
  it('starts the window on insert, whatever the owner sent, and keeps the state the verifier’s', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await givePlan(db, owner.personalAccountId, { features: ['add_branded_domains'] });
      const far = new Date(Date.now() + 365 * 86_400_000);
      const row = await asActor(db, owner.id, (as) =>
        one<Verification>(
          as,
          `insert into public.domains (domain, kind, account_id, verification_deadline,
             verification_problem)
           values ($1, 'branded', $2, $3, 'dns_error') returning ${COLUMNS}`,
          [`vd-${uniqueSuffix()}.test`, owner.personalAccountId, far],
        ),
      );
      const windowMs = row.verification_deadline!.getTime() - Date.now();
      // The settings' 3 days, not the year the owner asked for.
      expect(windowMs).toBeGreaterThan(3 * 86_400_000 - 60_000);
      expect(windowMs).toBeLessThanOrEqual(3 * 86_400_000 + 60_000);
      expect(row).toMatchObject({
        verification_status: 'pending',
        verification_problem: null,
        verification_next_check_at: expect.any(Date),
      });
      for (const [column, value] of [
        ['verification_deadline', far],
        ['verification_problem', 'dns_error'],
        ['verification_next_check_at', null],
      ] as const) {
        await asActor(db, owner.id, (as) =>
          expectProtectedColumn(
            as.query(`update public.domains set ${column} = $2 where id = $1`, [row.id, value]),
            column,
          ),
        );
      }
    }));

  it('lets a domain’s managers restart a failed verification with a fresh deadline; no one else', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, { features: LINK_FEATURES });
      const domain = await one<{ id: string }>(
        db,
        `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
         returning id`,
        [`vr-${uniqueSuffix()}.test`, cast.team.accountId],
      );
      await db.query(
        `update public.domains set verification_deadline = now() - interval '1 minute'
         where id = $1`,
        [domain.id],
      );
      await db.query(`select app.record_domain_check($1, false, 'txt_missing')`, [domain.id]);
      const failed = await one<Verification>(
        db,
        `select ${COLUMNS} from public.domains where id = $1`,
        [domain.id],
      );
      expect(failed).toMatchObject({
        verification_status: 'failed',
        verification_problem: 'txt_missing',
        verification_next_check_at: null,
      });

      for (const actor of ['member', 'viewer', 'stranger'] as const) {
        await asActor(db, cast[actor].id, (as) =>
          expectCoded(
            as.query(`select * from public.restart_domain_verification($1)`, [domain.id]),
            'domain_not_found',
          ),
        );
      }
      const restarted = await asActor(db, cast.teamAdmin.id, (as) =>
        one<Verification>(as, `select ${COLUMNS} from public.restart_domain_verification($1)`, [
          domain.id,
        ]),
      );
      expect(restarted).toMatchObject({
        verification_status: 'pending',
        verification_problem: null,
        verification_next_check_at: expect.any(Date),
      });
      expect(restarted.verification_deadline!.getTime()).toBeGreaterThan(Date.now());
    }));
});
