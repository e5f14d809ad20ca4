import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createUser,
  expectProtectedColumn,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';

const pool = useDatabase();

describe('new users', () => {
  it('get a profile and a personal account named from their sign-up metadata', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db, { name: 'Ada Lovelace' });
      const row = await one<{ name: string; kind: string; owner_id: string; account_name: string }>(
        db,
        `select p.name, a.kind, a.owner_id, a.name as account_name
         from public.profiles p join public.accounts a on a.id = p.personal_account_id
         where p.id = $1`,
        [user.id],
      );
      expect(row).toEqual({
        name: 'Ada Lovelace',
        kind: 'personal',
        owner_id: user.id,
        account_name: 'Ada Lovelace',
      });
    }));
});

describe('profiles by actor', () => {
  it('the user reads and renames their own profile; the personal account follows', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await asActor(db, user.id, async (as) => {
        await as.query(`update public.profiles set name = 'Renamed' where id = $1`, [user.id]);
        const rows = await all(as, `select name from public.accounts where id = $1`, [
          user.personalAccountId,
        ]);
        expect(rows).toEqual([{ name: 'Renamed' }]);
      });
    }));

  it('the user cannot raise their own developer flag or status', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await asActor(db, user.id, async (as) => {
        await expectProtectedColumn(
          as.query(`update public.profiles set is_developer = true where id = $1`, [user.id]),
          'is_developer',
        );
      });
      await asActor(db, user.id, async (as) => {
        await expectProtectedColumn(
          as.query(`update public.profiles set status = 16 where id = $1`, [user.id]),
          'status',
        );
      });
    }));

  it('a stranger sees no profile but their own', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const rows = await asActor(db, cast.stranger.id, (as) =>
        all<{ id: string }>(as, `select id from public.profiles`),
      );
      expect(rows.map((r) => r.id)).toEqual([cast.stranger.id]);
    }));

  it('anonymous visitors cannot read profiles at all', () =>
    withRollback(pool, async (db) => {
      await createUser(db);
      await asActor(db, null, (as) => expectRefused(as.query(`select id from public.profiles`)));
    }));
});
