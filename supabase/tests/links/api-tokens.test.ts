import type pg from 'pg';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createUser,
  one,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';
import { asServiceRole, expectLinkError, expectRefusedAs, givePlan } from './fixtures.ts';

/**
 * API tokens: minted by create_api_token for holders of the api permission whose plan has
 * use_api, stored only as a SHA-256, and resolved (for the API edge function) by
 * app.authenticate_api_token.
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
  args: { name?: string; abilities?: string[] | null; accountId?: string; expiresAt?: Date },
) {
  return asActor(db, actor, (as) =>
    one<{ result: Minted }>(
      as,
      `select public.create_api_token(p_name => $1, p_abilities => $2, p_account_id => $3,
         p_expires_at => $4) as result`,
      [
        args.name ?? 'Deploys',
        args.abilities === undefined ? ['links.read'] : args.abilities,
        args.accountId ?? null,
        args.expiresAt ?? null,
      ],
    ),
  ).then((row) => row.result);
}

function authenticate(db: pg.ClientBase, token: string) {
  return asServiceRole(db, (as) =>
    all<{ account_id: string; abilities: string[] }>(
      as,
      `select account_id, abilities from app.authenticate_api_token($1)`,
      [token],
    ),
  );
}

describe('create_api_token', () => {
  it('answers the token once and keeps only its SHA-256', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      const minted = await mint(db, user.id, { abilities: ['links.create', 'links.read'] });
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
        abilities: ['links.create', 'links.read'],
        account_id: user.personalAccountId,
      });
      const plain = await all(
        db,
        `select 1 from public.api_tokens t where t::text like '%' || $1 || '%'`,
        [minted.token],
      );
      expect(plain).toEqual([]);
    }));

  it('needs the api permission on the account and use_api on its plan', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, { features: ['use_api'] });
      await mint(db, cast.teamAdmin.id, { accountId: cast.team.accountId });
      await expectLinkError(
        mint(db, cast.member.id, { accountId: cast.team.accountId }),
        'permission_denied',
      );
      await expectLinkError(
        mint(db, cast.stranger.id, { accountId: cast.team.accountId }),
        'permission_denied',
      );
      // The stranger's own workspace has no plan with use_api.
      await expectLinkError(mint(db, cast.stranger.id, {}), 'feature_not_allowed');
    }));

  it('needs a verified e-mail address or a subscription', () =>
    withRollback(pool, async (db) => {
      const unverified = await createUser(db, { confirmed: false });
      await db.query(`update public.accounts set features = '{use_api}' where id = $1`, [
        unverified.personalAccountId,
      ]);
      await expectLinkError(mint(db, unverified.id, {}), 'email_verification', { hint: 'form' });
    }));

  it('validates the name, the abilities and the expiry', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      await expectLinkError(mint(db, user.id, { name: '  ' }), 'name_required');
      await expectLinkError(mint(db, user.id, { abilities: [] }), 'abilities_invalid');
      await expectLinkError(
        mint(db, user.id, { abilities: ['links.read', 'root'] }),
        'abilities_invalid',
      );
      await expectLinkError(
        mint(db, user.id, { expiresAt: new Date(Date.now() - 60_000) }),
        'expiry_too_soon',
      );
    }));

  it('is not for anonymous callers', () =>
    withRollback(pool, async (db) => {
      await expectRefusedAs(db, null, `select public.create_api_token('x', '{links.read}')`);
    }));
});

describe('app.authenticate_api_token', () => {
  it('resolves a live token to its account and abilities and records the use', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      const minted = await mint(db, user.id, { abilities: ['links.read'] });
      expect(await authenticate(db, minted.token)).toEqual([
        { account_id: user.personalAccountId, abilities: ['links.read'] },
      ]);
      const used = await one<{ used: boolean }>(
        db,
        `select last_used_at is not null as used from public.api_tokens where id = $1`,
        [minted.id],
      );
      expect(used.used).toBe(true);
    }));

  it('knows no unknown, revoked or expired token', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['use_api'] });
      const revoked = await mint(db, user.id, {});
      const expired = await mint(db, user.id, { name: 'Old' });
      await db.query(`delete from public.api_tokens where id = $1`, [revoked.id]);
      await db.query(
        `update public.api_tokens set expires_at = now() - interval '1 minute' where id = $1`,
        [expired.id],
      );
      expect(await authenticate(db, revoked.token)).toEqual([]);
      expect(await authenticate(db, expired.token)).toEqual([]);
      expect(await authenticate(db, 'slt_' + '0'.repeat(48))).toEqual([]);
    }));

  it('is for the service role only', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectRefusedAs(db, user.id, `select * from app.authenticate_api_token('slt_x')`);
    }));
});
