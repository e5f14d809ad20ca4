import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  asActor,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * The affiliate-link option (migration 005900) by actor: a signed-in person sets or clears
 * status flag 4 ("no affiliate") on their own profile only, leaving the other flags alone; a
 * guest cannot, and nobody sets the column directly.
 */
const pool = useDatabase();

const statusOf = (db: pg.ClientBase, userId: string) =>
  one<{ status: number }>(db, 'select status from public.profiles where id = $1', [userId]).then(
    (row) => row.status,
  );

describe('affiliate links', () => {
  it('a signed-in person refuses and allows them on their own account only', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db, { status: 8 });
      const other = await createUser(db);
      const refused = await asActor(db, person.id, (as) =>
        one<{ allowed: boolean }>(as, 'select public.set_my_affiliate_links(false) as allowed'),
      );
      expect(refused.allowed).toBe(false);
      expect(await statusOf(db, person.id)).toBe(8 | 4);
      expect(await statusOf(db, other.id)).toBe(0);
      await asActor(db, person.id, (as) => as.query('select public.set_my_affiliate_links(true)'));
      expect(await statusOf(db, person.id)).toBe(8);
    }));

  it('needs a login and an answer; the status column stays staff-only', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db);
      await expectRefused(
        asActor(db, null, (as) => as.query('select public.set_my_affiliate_links(false)')),
      );
      const error = await expectDatabaseError(
        asActor(db, person.id, (as) => as.query('select public.set_my_affiliate_links(null)')),
      );
      expect(error.message).toBe('allow_required');
      await expectDatabaseError(
        asActor(db, person.id, (as) =>
          as.query('update public.profiles set status = 4 where id = $1', [person.id]),
        ),
      );
      expect(await statusOf(db, person.id)).toBe(0);
    }));
});
