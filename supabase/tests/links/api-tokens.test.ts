import type pg from 'pg';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  confirmed,
  createCast,
  createTeam,
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';
import { asServiceRole, expectLinkError, expectRefusedAs, givePlan } from './fixtures.ts';

/**
 * API tokens: minted by create_api_token for holders of the api permission whose plan has
 * use_api, stored only as a SHA-256, listed, renamed and revoked by API managers, and checked
 * before every API request by app.begin_api_call. Minting and revoking need a recent password
 * sign-in (423 otherwise, the portal's confirm-password flow).
 */
const pool = useDatabase();

interface Minted {
  id: string;
  token: string;
  token_prefix: string;
}

function mint(
  db: pg.ClientBase,
  actor: Actor,
  args: { name?: string; abilities?: string[] | null; accountId?: string; expiresAt?: Date } = {},
) {
  return asActor(db, actor, (as) =>
    one<{ result: Minted }>(
      as,
      `select public.create_api_token(p_name => $1, p_abilities => $2, p_account_id => $3,
         p_expires_at => $4) as result`,
      [
        args.name ?? 'Deploys',
        args.abilities === undefined ? ['links:read'] : args.abilities,
        args.accountId ?? null,
        args.expiresAt ?? null,
      ],
    ),
  ).then((row) => row.result);
}

const me = (user: { id: string }) => confirmed(user);

async function expectPasswordConfirmation(promise: Promise<unknown>) {
  const error = await expectDatabaseError(promise);
  expect({ code: error.code, message: error.message, detail: error.detail }).toEqual({
    code: 'PT423',
    message: 'password_confirmation_required',
    detail: 'Password confirmation required.',
  });
}

interface ApiCall {
  outcome: string;
  account_id?: string;
  user_id?: string;
  organization_id?: string | null;
  abilities?: string[];
  rate?: { limit: number; remaining: number; reset: number };
}

function beginCall(
  db: pg.ClientBase,
  token: string,
  ability: string | null = 'links:read',
  limit = 100,
) {
  return asServiceRole(db, (as) =>
    one<{ call: ApiCall }>(
      as,
      `select app.begin_api_call($1, $2, $3, interval '1 minute') as call`,
      [token, ability, limit],
    ),
  ).then((row) => row.call);
}

describe('create_api_token', () => {
  it('answers the token once and keeps only its SHA-256', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      const minted = await mint(db, me(user), { abilities: ['links:write', 'links:read'] });
      expect(minted.token).toMatch(/^slt_[0-9a-f]{48}$/);
      expect(minted.token.startsWith(minted.token_prefix)).toBe(true);
      const stored = await one<{ hash: string; abilities: string[]; account_id: string }>(
        db,
        `select encode(token_hash, 'hex') as hash, abilities, account_id
         from public.api_tokens where id = $1`,
        [minted.id],
      );
      expect(stored).toEqual({
        hash: createHash('sha256').update(minted.token).digest('hex'),
        abilities: ['links:read', 'links:write'],
        account_id: user.personalAccountId,
      });
      const plain = await all(
        db,
        `select 1 from public.api_tokens t where t::text like '%' || $1 || '%'`,
        [minted.token],
      );
      expect(plain).toEqual([]);
    }));

  it('needs a password confirmed within 3 hours (423), not an old or impersonated session', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      await expectPasswordConfirmation(mint(db, user.id));
      const stale = new Date(Date.now() - 3 * 3600_000 - 60_000);
      await expectPasswordConfirmation(mint(db, { id: user.id, passwordAt: stale }));
      await expectPasswordConfirmation(mint(db, { id: user.id, impersonation: true }));
      const recent = new Date(Date.now() - 2 * 3600_000);
      await mint(db, { id: user.id, passwordAt: recent });
    }));

  it('mints for the user, a standalone team and an organization team, by actor', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, { features: ['use_api'] });
      const standalone = await createTeam(db, { ownerId: cast.stranger.id });
      await givePlan(db, standalone.accountId, { features: ['use_api'] });
      await givePlan(db, cast.stranger.personalAccountId, { features: ['use_api'] });

      await mint(db, me(cast.owner), { accountId: cast.team.accountId });
      await mint(db, me(cast.teamAdmin), { accountId: cast.team.accountId });
      await mint(db, me(cast.stranger), { accountId: standalone.accountId });
      await mint(db, me(cast.stranger));
      for (const refused of [cast.member, cast.viewer, cast.orgUser, cast.staff, cast.stranger]) {
        await expectLinkError(
          mint(db, me(refused), { accountId: cast.team.accountId }),
          'permission_denied',
        );
      }
      await expectLinkError(
        mint(db, me(cast.teamAdmin), { accountId: standalone.accountId }),
        'permission_denied',
      );
      // The team admin's own workspace has no plan with use_api.
      await expectLinkError(mint(db, me(cast.teamAdmin)), 'feature_not_allowed');
    }));

  it('needs a verified e-mail address or a subscription', () =>
    withRollback(pool, async (db) => {
      const unverified = await createUser(db, { confirmed: false });
      await db.query(`update public.accounts set features = '{use_api}' where id = $1`, [
        unverified.personalAccountId,
      ]);
      await expectLinkError(mint(db, me(unverified)), 'email_verification', { hint: 'form' });
    }));

  it('validates the name, the abilities and the expiry', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      await expectLinkError(mint(db, me(user), { name: '  ' }), 'name_required');
      await expectLinkError(mint(db, me(user), { abilities: [] }), 'abilities_invalid');
      await expectLinkError(
        mint(db, me(user), { abilities: ['links:read', 'root'] }),
        'abilities_invalid',
      );
      // The old dotted vocabulary is gone.
      await expectLinkError(mint(db, me(user), { abilities: ['links.read'] }), 'abilities_invalid');
      await expectLinkError(
        mint(db, me(user), { expiresAt: new Date(Date.now() - 60_000) }),
        'expiry_too_soon',
      );
      const all5 = ['links:read', 'links:write', 'analytics:read', 'domains:read', 'bulk'];
      await mint(db, me(user), { abilities: all5 });
    }));

  it('is not for anonymous callers', () =>
    withRollback(pool, async (db) => {
      await expectRefusedAs(db, null, `select public.create_api_token('x', '{links:read}')`);
    }));
});

describe('listing, editing and revoking', () => {
  async function teamToken(db: pg.ClientBase) {
    const cast = await createCast(db);
    await givePlan(db, cast.organization.accountId, { features: ['use_api'] });
    const minted = await mint(db, me(cast.teamAdmin), { accountId: cast.team.accountId });
    return { cast, minted };
  }

  it('API managers and staff list a team’s tokens with their last use; others see none', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamToken(db);
      await db.query(`update public.api_tokens set last_used_at = now() where id = $1`, [
        minted.id,
      ]);
      const list = (actor: Actor) =>
        asActor(db, actor, (as) =>
          all<{ id: string; used: boolean }>(
            as,
            `select id, last_used_at is not null as used from public.api_tokens
             where account_id = $1`,
            [cast.team.accountId],
          ),
        );
      for (const reader of [cast.owner, cast.teamAdmin, cast.staff]) {
        expect(await list(reader.id)).toEqual([{ id: minted.id, used: true }]);
      }
      for (const outsider of [cast.member, cast.viewer, cast.orgUser, cast.stranger]) {
        expect(await list(outsider.id)).toEqual([]);
      }
      await expectRefused(list(null));
      await expectRefusedAs(db, cast.teamAdmin.id, `select token_hash from public.api_tokens`);
    }));

  it('API managers rename and re-scope; others find no such token', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamToken(db);
      const update = (actor: Actor, name: string, abilities: string[]) =>
        asActor(db, actor, (as) =>
          one<{ result: { name: string; abilities: string[] } }>(
            as,
            `select public.update_api_token($1, $2, $3) as result`,
            [minted.id, name, abilities],
          ),
        );
      const updated = await update(cast.owner.id, ' CI ', ['links:write', 'analytics:read']);
      expect(updated.result).toMatchObject({
        name: 'CI',
        abilities: ['analytics:read', 'links:write'],
      });
      for (const outsider of [cast.member, cast.viewer, cast.orgUser, cast.stranger, cast.staff]) {
        const error = await expectDatabaseError(update(outsider.id, 'X', ['links:read']));
        expect([error.code, error.message]).toEqual(['PT404', 'api_token_not_found']);
      }
      await expectLinkError(update(cast.teamAdmin.id, 'CI', ['bulk', 'x']), 'abilities_invalid');
      await expectLinkError(update(cast.teamAdmin.id, '', ['bulk']), 'name_required');
    }));

  it('revoking needs a confirmed password; outsiders find no such token; staff may', () =>
    withRollback(pool, async (db) => {
      const { cast, minted } = await teamToken(db);
      const revoke = (actor: Actor, id = minted.id) =>
        asActor(db, actor, (as) => as.query(`select public.revoke_api_token($1)`, [id]));
      await expectPasswordConfirmation(revoke(cast.teamAdmin.id));
      await expectPasswordConfirmation(
        asActor(db, cast.teamAdmin.id, (as) =>
          as.query(`delete from public.api_tokens where id = $1`, [minted.id]),
        ),
      );
      for (const outsider of [cast.member, cast.viewer, cast.orgUser, cast.stranger]) {
        const error = await expectDatabaseError(revoke(me(outsider)));
        expect([error.code, error.message]).toEqual(['PT404', 'api_token_not_found']);
      }
      await revoke(me(cast.teamAdmin));
      const other = await mint(db, me(cast.teamAdmin), { accountId: cast.team.accountId });
      await revoke(me(cast.staff), other.id);
      expect(
        await all(db, `select id from public.api_tokens where account_id = $1`, [
          cast.team.accountId,
        ]),
      ).toEqual([]);
    }));

  it('a deleted account takes its tokens with it without asking for a password', () =>
    withRollback(pool, async (db) => {
      const { cast } = await teamToken(db);
      // The owner's unconfirmed session: the cascade must not ask it for a password.
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: cast.owner.id, role: 'authenticated' }),
      ]);
      await db.query(`delete from public.accounts where id = $1`, [cast.team.accountId]);
      await db.query(`select set_config('request.jwt.claims', '', true)`);
      expect(
        await all(db, `select id from public.api_tokens where account_id = $1`, [
          cast.team.accountId,
        ]),
      ).toEqual([]);
    }));
});

describe('app.begin_api_call', () => {
  async function userToken(
    db: pg.ClientBase,
    options: Record<string, unknown> = {},
    abilities = ['links:read'],
  ) {
    const user = await createUser(db);
    await givePlan(db, user.personalAccountId, { features: ['use_api'], options });
    const minted = await mint(db, me(user), { abilities });
    return { user, minted };
  }

  it('resolves a live token to its account, creator and abilities and records the use', () =>
    withRollback(pool, async (db) => {
      const { user, minted } = await userToken(db);
      const call = await beginCall(db, minted.token);
      expect(call).toMatchObject({
        outcome: 'ok',
        account_id: user.personalAccountId,
        user_id: user.id,
        organization_id: null,
        abilities: ['links:read'],
        rate: { limit: 100, remaining: 99 },
      });
      const used = await one<{ used: boolean }>(
        db,
        `select last_used_at is not null as used from public.api_tokens where id = $1`,
        [minted.id],
      );
      expect(used.used).toBe(true);
    }));

  it('knows no unknown, revoked or expired token', () =>
    withRollback(pool, async (db) => {
      const { minted: revoked } = await userToken(db);
      const { minted: expired } = await userToken(db);
      await db.query(`delete from public.api_tokens where id = $1`, [revoked.id]);
      await db.query(
        `update public.api_tokens set expires_at = now() - interval '1 minute' where id = $1`,
        [expired.id],
      );
      for (const token of [revoked.token, expired.token, 'slt_' + '0'.repeat(48), '']) {
        expect(await beginCall(db, token)).toEqual({ outcome: 'unauthenticated' });
      }
    }));

  it('refuses a missing ability, then the limit per token, counting refused calls', () =>
    withRollback(pool, async (db) => {
      const { minted } = await userToken(db);
      expect((await beginCall(db, minted.token, 'links:write', 2)).outcome).toBe('ability_missing');
      const second = await beginCall(db, minted.token, 'links:read', 2);
      expect(second).toMatchObject({ outcome: 'ok', rate: { limit: 2, remaining: 0 } });
      const third = await beginCall(db, minted.token, 'links:read', 2);
      expect(third.outcome).toBe('rate_limited');
      expect(third.rate?.reset).toBeGreaterThan(0);
      expect(third.rate?.reset).toBeLessThanOrEqual(60);
    }));

  it('spends one API credit per call and says when they run out', () =>
    withRollback(pool, async (db) => {
      const { user, minted } = await userToken(db, { max_api_credits: 2 });
      expect((await beginCall(db, minted.token)).outcome).toBe('ok');
      expect((await beginCall(db, minted.token)).outcome).toBe('ok');
      expect((await beginCall(db, minted.token)).outcome).toBe('not_enough_credits');
      const usage = await one<{ used: string }>(
        db,
        `select used from public.account_usage where account_id = $1 and name = 'max_api_credits'`,
        [user.personalAccountId],
      );
      expect(Number(usage.used)).toBe(2);
    }));

  it('stops a token whose creator lost the api permission or whose plan lost use_api', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, { features: ['use_api'] });
      const minted = await mint(db, me(cast.teamAdmin), { accountId: cast.team.accountId });
      expect(await beginCall(db, minted.token)).toMatchObject({
        outcome: 'ok',
        account_id: cast.team.accountId,
        organization_id: cast.organization.id,
      });
      await db.query(
        `update public.team_members set role = 'member' where team_id = $1 and user_id = $2`,
        [cast.team.id, cast.teamAdmin.id],
      );
      expect((await beginCall(db, minted.token)).outcome).toBe('permission_denied');

      const { user, minted: own } = await userToken(db);
      await db.query(`update public.accounts set features = '{}' where id = $1`, [
        user.personalAccountId,
      ]);
      await db.query(
        `update public.plan_prices set features = '{}' where id = app.account_price_id($1)`,
        [user.personalAccountId],
      );
      expect((await beginCall(db, own.token)).outcome).toBe('feature_not_allowed');
    }));

  it('is for the service role only', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectRefusedAs(
        db,
        user.id,
        `select app.begin_api_call('slt_x', null, 1, interval '1 minute')`,
      );
    }));
});
