import { QUOTE_MESSAGES } from '@shortlane/shared/schemas/quote.ts';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * The mailing opt-out and Enterprise quote requests (migration 005100) by actor: a link's token
 * changes its owner's flag 8 without a login, a signed-in person changes their own, nobody reads
 * a token through the API; anyone asks for a quote within the limit, askers read their own,
 * staff read and answer all.
 */
const pool = useDatabase();

async function expectError(promise: Promise<unknown>, code: string, message: string) {
  const error = await expectDatabaseError(promise);
  expect({ code: error.code, message: error.message }).toEqual({ code, message });
  return error;
}

const statusOf = (db: pg.ClientBase, userId: string) =>
  one<{ status: number }>(db, 'select status from public.profiles where id = $1', [userId]).then(
    (row) => row.status,
  );

const tokenOf = (db: pg.ClientBase, userId: string) =>
  one<{ token: string }>(db, 'select app.mailing_unsubscribe_token($1) as token', [userId]).then(
    (row) => row.token,
  );

const byLink = (db: pg.ClientBase, token: string, receive: boolean) =>
  asActor(db, null, (as) =>
    one<{ result: { email: string; receives_mailings: boolean } }>(
      as,
      'select public.set_mailings_by_link($1, $2) as result',
      [token, receive],
    ),
  ).then((row) => row.result);

describe('mailing opt-out', () => {
  it('a guest with the link stops and restarts mailings; other flags stay', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db, { email: 'ada.lovelace@shortlane.test', status: 4 });
      const token = await tokenOf(db, person.id);
      expect(token).toMatch(/^[0-9a-f]{48}$/);
      expect(await tokenOf(db, person.id)).toBe(token);

      expect(await byLink(db, token, false)).toEqual({
        email: 'ad***@shortlane.test',
        receives_mailings: false,
      });
      expect(await statusOf(db, person.id)).toBe(4 | 8);
      // Following the link twice changes nothing more.
      await byLink(db, token, false);
      expect(await statusOf(db, person.id)).toBe(4 | 8);

      await byLink(db, token, true);
      expect(await statusOf(db, person.id)).toBe(4);
    }));

  it('a malformed or unknown token is refused and changes nobody', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db);
      await tokenOf(db, person.id);
      await expectError(byLink(db, 'not-a-token', false), 'PT404', 'unsubscribe_link_invalid');
      await expectError(byLink(db, 'a'.repeat(48), false), 'PT404', 'unsubscribe_link_invalid');
      await expectError(
        asActor(db, null, (as) =>
          as.query('select public.set_mailings_by_link($1, null)', ['a'.repeat(48)]),
        ),
        'PT422',
        'receive_required',
      );
      expect(await statusOf(db, person.id)).toBe(0);
    }));

  it('tokens are out of reach of the API, and only the service role mints them', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db);
      await tokenOf(db, person.id);
      for (const actor of [person.id, null]) {
        await expectRefused(
          asActor(db, actor, (as) => as.query('select token from app.mailing_tokens')),
        );
        await expectRefused(
          asActor(db, actor, (as) =>
            as.query('select app.mailing_unsubscribe_token($1)', [person.id]),
          ),
        );
      }
    }));

  it('a signed-in person changes their own flag only; a guest cannot', () =>
    withRollback(pool, async (db) => {
      const person = await createUser(db, { status: 16 });
      const other = await createUser(db);
      await asActor(db, person.id, (as) => as.query('select public.set_my_mailings(false)'));
      expect(await statusOf(db, person.id)).toBe(16 | 8);
      expect(await statusOf(db, other.id)).toBe(0);
      await asActor(db, person.id, (as) => as.query('select public.set_my_mailings(true)'));
      expect(await statusOf(db, person.id)).toBe(16);
      await expectRefused(
        asActor(db, null, (as) => as.query('select public.set_my_mailings(false)')),
      );
    }));
});

const ask = (
  db: pg.ClientBase,
  actor: string | null,
  fields: Partial<Record<'name' | 'email' | 'company' | 'message', string | null>> & {
    links?: number | null;
    team?: number | null;
  } = {},
) =>
  asActor(db, actor, (as) =>
    one<{ id: string }>(as, 'select public.request_quote($1, $2, $3, $4, $5, $6) as id', [
      fields.name === undefined ? 'Grace Hopper' : fields.name,
      fields.email === undefined ? 'Grace@Navy.test ' : fields.email,
      fields.company === undefined ? 'Navy' : fields.company,
      fields.links === undefined ? 50_000 : fields.links,
      fields.team === undefined ? 40 : fields.team,
      fields.message === undefined ? 'We need SSO.' : fields.message,
    ]),
  ).then((row) => row.id);

describe('quote requests', () => {
  it('a guest and a user ask; the user reads their own, strangers and guests read none', () =>
    withRollback(pool, async (db) => {
      const [asker, stranger] = [await createUser(db), await createUser(db)];
      const guestRequest = await ask(db, null, { company: '  ', message: null });
      const userRequest = await ask(db, asker.id);

      const stored = await one<{ email: string; company: string | null; user_id: string | null }>(
        db,
        'select email, company, user_id from public.quote_requests where id = $1',
        [guestRequest],
      );
      expect(stored).toEqual({ email: 'grace@navy.test', company: null, user_id: null });

      const own = await asActor(db, asker.id, (as) =>
        all<{ id: string; state: string }>(as, 'select id, state from public.quote_requests'),
      );
      expect(own).toEqual([{ id: userRequest, state: 'new' }]);
      expect(
        await asActor(db, stranger.id, (as) => all(as, 'select id from public.quote_requests')),
      ).toEqual([]);
      await expectRefused(
        asActor(db, null, (as) => as.query('select id from public.quote_requests')),
      );
      // Nobody writes the table directly, and the asker cannot answer their own.
      await expectRefused(
        asActor(db, asker.id, (as) =>
          as.query(
            `insert into public.quote_requests (name, email, links_per_month, team_size)
             values ('x', 'x@y.test', 1, 1)`,
          ),
        ),
      );
      const answered = await asActor(db, asker.id, (as) =>
        as.query(`update public.quote_requests set state = 'answered' where id = $1`, [
          userRequest,
        ]),
      );
      expect(answered.rowCount).toBe(0);
    }));

  it('staff read every request and answer it; other columns stay theirs', () =>
    withRollback(pool, async (db) => {
      const staff = await createUser(db, { developer: true });
      const request = await ask(db, null);
      const seen = await asActor(db, staff.id, (as) =>
        all<{ id: string }>(as, 'select id from public.quote_requests where id = $1', [request]),
      );
      expect(seen).toEqual([{ id: request }]);
      const updated = await asActor(db, staff.id, (as) =>
        as.query(
          `update public.quote_requests set state = 'answered', staff_note = 'Called them'
           where id = $1`,
          [request],
        ),
      );
      expect(updated.rowCount).toBe(1);
      await expectRefused(
        asActor(db, staff.id, (as) =>
          as.query(`update public.quote_requests set email = 'x@y.test' where id = $1`, [request]),
        ),
      );
    }));

  it('refuses each bad field with its own message and stores nothing', () =>
    withRollback(pool, async (db) => {
      const cases: [Parameters<typeof ask>[2], string][] = [
        [{ name: ' ' }, 'name_invalid'],
        [{ name: 'x'.repeat(101) }, 'name_invalid'],
        [{ email: 'not-an-address' }, 'email_invalid'],
        [{ email: null }, 'email_invalid'],
        [{ company: 'c'.repeat(201) }, 'company_invalid'],
        [{ links: 0 }, 'links_per_month_invalid'],
        [{ links: null }, 'links_per_month_invalid'],
        [{ team: 0 }, 'team_size_invalid'],
        [{ message: 'm'.repeat(5001) }, 'message_invalid'],
      ];
      const user = await createUser(db);
      for (const [fields, code] of cases) {
        const error = await expectError(ask(db, user.id, fields), 'PT422', code);
        // The form says the same before sending (shared/src/schemas/quote.ts).
        const field = error.hint as keyof typeof QUOTE_MESSAGES;
        expect(`${field}_invalid`).toBe(code);
        expect(error.detail).toBe(QUOTE_MESSAGES[field]);
      }
      const count = await one<{ n: number }>(
        db,
        'select count(*)::int as n from public.quote_requests where user_id = $1',
        [user.id],
      );
      expect(count.n).toBe(0);
    }));

  it('five requests an hour per account, then Too Many Attempts with the wait', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      for (let i = 0; i < 5; i += 1) await ask(db, user.id);
      const error = await expectError(ask(db, user.id), 'PT429', 'too_many_attempts');
      expect(error.detail).toBe('Too Many Attempts.');
      expect(Number(error.hint)).toBeGreaterThan(3500);
      // Another account has its own allowance.
      await ask(db, (await createUser(db)).id);
    }));
});
