import type pg from 'pg';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  confirmed,
  createCast,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';
import { asServiceRole, expectLinkError, givePlan } from './fixtures.ts';

/**
 * What the token screens read beyond the table: an account's API credits (portal), and the
 * kiosk's token view and staff revocation. By actor: API managers, other members, strangers,
 * anonymous callers and staff.
 */
const pool = useDatabase();

/** A token of the account as the factories make rows: straight into the table as postgres. */
async function insertToken(db: pg.ClientBase, accountId: string, createdBy: string) {
  const token = `slt_${randomBytes(24).toString('hex')}`;
  return one<{ id: string }>(
    db,
    `insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
       abilities)
     values ($1, $2, 'CI', sha256(convert_to($3, 'UTF8')), left($3, 10), '{links:read}')
     returning id`,
    [accountId, createdBy, token],
  ).then((row) => ({ id: row.id, token }));
}

async function teamScene(db: pg.ClientBase) {
  const cast = await createCast(db);
  await givePlan(db, cast.organization.accountId, {
    features: ['use_api'],
    options: { max_api_credits: 500 },
  });
  const minted = await insertToken(db, cast.team.accountId, cast.teamAdmin.id);
  return { cast, minted };
}

describe('public.api_credits', () => {
  const credits = (db: pg.ClientBase, actor: Actor | null, accountId: string) =>
    asActor(db, actor, (as) =>
      one<{ credits: { used: number; limit: number | null } }>(
        as,
        `select public.api_credits($1) as credits`,
        [accountId],
      ),
    ).then((row) => row.credits);

  it('tells API managers what the plan allows and what the calls spent', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamScene(db);
      expect(await credits(db, cast.teamAdmin.id, cast.team.accountId)).toEqual({
        used: 0,
        limit: 500,
      });
      const call = await asServiceRole(db, (as) =>
        one<{ call: { outcome: string } }>(
          as,
          `select app.begin_api_call($1, 'links:read', 100, interval '1 minute') as call`,
          [minted.token],
        ),
      );
      expect(call.call.outcome).toBe('ok');
      expect(await credits(db, cast.owner.id, cast.team.accountId)).toEqual({
        used: 1,
        limit: 500,
      });
    }));

  it('is refused to members without the api permission, strangers, staff and guests', () =>
    withRollback(pool, async (db) => {
      const { cast } = await teamScene(db);
      for (const outsider of [cast.member, cast.viewer, cast.stranger, cast.staff]) {
        await expectLinkError(credits(db, outsider.id, cast.team.accountId), 'permission_denied');
      }
      await expectRefused(credits(db, null, cast.team.accountId));
    }));
});

describe('public.kiosk_api_tokens', () => {
  const rows = (db: pg.ClientBase, actor: Actor | null) =>
    asActor(db, actor, (as) =>
      all<Record<string, unknown>>(as, `select * from public.kiosk_api_tokens order by name`),
    );

  it('shows staff every token with its account and creator, never a hash or secret', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamScene(db);
      const seen = (await rows(db, cast.staff.id)).filter((row) => row.id === minted.id);
      expect(seen).toEqual([
        expect.objectContaining({
          id: minted.id,
          name: 'CI',
          token_prefix: minted.token.slice(0, 10),
          abilities: ['links:read'],
          account_id: cast.team.accountId,
          account_kind: 'team',
          created_by: cast.teamAdmin.id,
          created_by_email: cast.teamAdmin.email,
          expired: false,
        }),
      ]);
      const columns = Object.keys(seen[0]!);
      expect(columns).not.toContain('token_hash');
      expect(JSON.stringify(seen)).not.toContain(minted.token.slice(10));
    }));

  it('shows nothing to API managers, members and strangers, and refuses guests', () =>
    withRollback(pool, async (db) => {
      const { cast } = await teamScene(db);
      for (const user of [cast.owner, cast.teamAdmin, cast.member, cast.stranger]) {
        expect(await rows(db, user.id)).toEqual([]);
      }
      await expectRefused(rows(db, null));
    }));
});

describe('public.kiosk_revoke_api_token', () => {
  const revoke = (db: pg.ClientBase, actor: Actor | null, id: string) =>
    asActor(db, actor, (as) => as.query(`select public.kiosk_revoke_api_token($1)`, [id]));
  const exists = async (db: pg.ClientBase, id: string) =>
    (await all(db, `select 1 from public.api_tokens where id = $1`, [id])).length === 1;

  it('lets staff revoke any token without a password confirmation; the next call is refused', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamScene(db);
      // An unconfirmed staff session: the owner's 423 rule is not the kiosk's.
      await revoke(db, cast.staff.id, minted.id);
      expect(await exists(db, minted.id)).toBe(false);
      const call = await asServiceRole(db, (as) =>
        one<{ call: { outcome: string } }>(
          as,
          `select app.begin_api_call($1, 'links:read', 100, interval '1 minute') as call`,
          [minted.token],
        ),
      );
      expect(call.call.outcome).toBe('unauthenticated');
      const error = await expectDatabaseError(revoke(db, cast.staff.id, minted.id));
      expect([error.code, error.message]).toEqual(['PT404', 'api_token_not_found']);
    }));

  it('is refused to everyone else, even the token’s own managers with a confirmed password', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamScene(db);
      for (const user of [cast.teamAdmin, cast.owner, cast.member, cast.stranger]) {
        await expectLinkError(revoke(db, confirmed(user), minted.id), 'permission_denied');
      }
      await expectRefused(revoke(db, null, minted.id));
      expect(await exists(db, minted.id)).toBe(true);
    }));

  it('leaves the owner’s password rule in place for the table and the portal’s RPC', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamScene(db);
      await revoke(
        db,
        cast.staff.id,
        (await insertToken(db, cast.team.accountId, cast.owner.id)).id,
      );
      // The exemption named only the token staff revoked, and only while revoking it.
      const error = await expectDatabaseError(
        asActor(db, cast.teamAdmin.id, (as) =>
          as.query(`select public.revoke_api_token($1)`, [minted.id]),
        ),
      );
      expect([error.code, error.message]).toEqual(['PT423', 'password_confirmation_required']);
      expect(await exists(db, minted.id)).toBe(true);
    }));
});
