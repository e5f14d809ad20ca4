import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  aal1,
  aal2,
  confirmed,
  all,
  asActor,
  createCast,
  createUser,
  enrollTotp,
  expectCoded,
  expectRefused,
  impersonating,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type TestUser,
} from './support/index.ts';

/**
 * Two-factor authentication in the database (20261122001400_two_factor.sql): backup codes by
 * actor and assurance level, the lockout, and aal2 in row-level security.
 */
const pool = useDatabase();

async function generateCodes(db: pg.ClientBase, user: TestUser): Promise<string[]> {
  const row = await asActor(db, aal2(user), (as) =>
    one<{ codes: string[] }>(as, 'select public.generate_two_factor_backup_codes() as codes'),
  );
  return row.codes;
}

function consume(db: pg.ClientBase, actor: Parameters<typeof asActor>[1], code: string) {
  return asActor(db, actor, (as) =>
    one<{ result: { consumed: boolean; attempts_left: number } }>(
      as,
      'select public.consume_two_factor_backup_code($1) as result',
      [code],
    ),
  ).then((row) => row.result);
}

const factorCount = async (db: pg.ClientBase, userId: string) =>
  (
    await one<{ n: number }>(
      db,
      'select count(*)::int as n from auth.mfa_factors where user_id = $1',
      [userId],
    )
  ).n;

const remaining = (db: pg.ClientBase, user: TestUser) =>
  asActor(db, aal1(user), (as) =>
    one<{ n: number }>(as, 'select public.two_factor_backup_codes_remaining() as n'),
  ).then((row) => row.n);

describe('backup codes: generation', () => {
  it('owner at aal2: gets 10 distinct codes once; only salted hashes are stored', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const codes = await generateCodes(db, owner);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);

      const stored = await all<{ salt: Buffer; code_hash: Buffer }>(
        db,
        'select salt, code_hash from public.two_factor_backup_codes where user_id = $1',
        [owner.id],
      );
      expect(stored).toHaveLength(10);
      const storedText = JSON.stringify(stored.map((row) => row.code_hash.toString('latin1')));
      for (const code of codes) expect(storedText).not.toContain(code.replace('-', ''));
      expect(new Set(stored.map((row) => row.salt.toString('hex'))).size).toBe(10);
      expect(await remaining(db, owner)).toBe(10);
      const events = await all(
        db,
        `select action, details from public.user_security_events where user_id = $1`,
        [owner.id],
      );
      expect(events).toEqual([
        { action: 'two_factor.backup_codes_generated', details: { count: 10 } },
      ]);
    }));

  it('regenerating replaces every earlier code', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const first = await generateCodes(db, owner);
      const second = await generateCodes(db, owner);
      expect(second.filter((code) => first.includes(code))).toEqual([]);
      expect(await remaining(db, owner)).toBe(10);
      expect(await consume(db, aal1(owner), first[0]!)).toEqual({
        consumed: false,
        attempts_left: 4,
      });
    }));

  it('owner at aal1 with a verified factor is refused (aal2_required)', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      await expectCoded(
        queryAs(db, aal1(owner), 'select public.generate_two_factor_backup_codes()'),
        'aal2_required',
      );
    }));

  it('a user without 2FA gets no codes (two_factor_not_enabled); anonymous cannot call', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectCoded(
        queryAs(db, aal2(user), 'select public.generate_two_factor_backup_codes()'),
        'two_factor_not_enabled',
      );
      await expectRefused(queryAs(db, null, 'select public.generate_two_factor_backup_codes()'));
      await expectRefused(
        queryAs(db, null, `select public.consume_two_factor_backup_code('AAAAA-AAAAA')`),
      );
      await expectRefused(queryAs(db, null, 'select public.two_factor_backup_codes_remaining()'));
    }));

  it('nobody reads or writes the hashes over the API, not even their owner', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      await generateCodes(db, owner);
      for (const actor of [aal2(owner), null]) {
        await expectRefused(queryAs(db, actor, 'select * from public.two_factor_backup_codes'));
        await expectRefused(
          queryAs(db, actor, 'delete from public.two_factor_backup_codes where user_id = $1', [
            owner.id,
          ]),
        );
        await expectRefused(
          queryAs(db, actor, 'select * from public.two_factor_backup_code_failures'),
        );
      }
    }));
});

describe('backup codes: never through an impersonation session', () => {
  it('spending a code (right or wrong) is refused; nothing is used, recorded or removed', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const codes = await generateCodes(db, owner);
      await expectCoded(consume(db, impersonating(owner), codes[0]!), 'impersonation_not_allowed');
      await expectCoded(
        consume(db, impersonating(owner), 'AAAAA-AAAAA'),
        'impersonation_not_allowed',
      );
      expect(await factorCount(db, owner.id)).toBe(1);
      expect(await remaining(db, owner)).toBe(10);
      const failures = await one<{ n: number }>(
        db,
        'select count(*)::int as n from public.two_factor_backup_code_failures where user_id = $1',
        [owner.id],
      );
      expect(failures.n).toBe(0);
      // The user's own session still spends it.
      expect(await consume(db, aal1(owner), codes[0]!)).toMatchObject({ consumed: true });
    }));

  it('generating codes is refused, even from a token claiming aal2', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const before = await generateCodes(db, owner);
      const generate = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, 'select public.generate_two_factor_backup_codes()');
      // Real impersonation tokens are aal1, which the aal2 rule already refuses.
      await expectCoded(generate(impersonating(owner)), 'aal2_required');
      await expectCoded(generate(impersonating(owner, 'aal2')), 'impersonation_not_allowed');
      expect(await consume(db, aal1(owner), before[0]!)).toMatchObject({ consumed: true });
    }));

  it('app.is_impersonating() reads the amr claim', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const check = (actor: Parameters<typeof asActor>[1]) =>
        asActor(db, actor, (as) =>
          one<{ yes: boolean }>(as, 'select app.is_impersonating() as yes'),
        ).then((row) => row.yes);
      expect(await check(impersonating(user))).toBe(true);
      expect(await check(aal2(user))).toBe(false);
    }));
});

describe('backup codes: sign-in with one', () => {
  it('owner at aal1: a code (any case, with or without dash) removes the TOTP factor, once', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const codes = await generateCodes(db, owner);
      const typed = ` ${codes[3]!.replace('-', '').toLowerCase()} `;

      expect(await consume(db, aal1(owner), typed)).toEqual({ consumed: true, attempts_left: 5 });
      expect(await factorCount(db, owner.id)).toBe(0);
      // The factor went, so its codes went too; the used one is kept, marked.
      const rows = await all<{ used: boolean }>(
        db,
        'select used_at is not null as used from public.two_factor_backup_codes where user_id = $1',
        [owner.id],
      );
      expect(rows).toEqual([{ used: true }]);
      const actions = await all<{ action: string }>(
        db,
        `select action from public.user_security_events where user_id = $1 order by id`,
        [owner.id],
      );
      expect(actions.map((row) => row.action)).toEqual([
        'two_factor.backup_codes_generated',
        'two_factor.backup_code_used',
        'two_factor.disabled',
      ]);
      // Single use: the same code (and any other) no longer signs in.
      await expectCoded(
        queryAs(db, aal1(owner), 'select public.consume_two_factor_backup_code($1)', [codes[3]]),
        'two_factor_not_enabled',
      );
    }));

  it('a used code cannot be used again while 2FA is back on', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const codes = await generateCodes(db, owner);
      await consume(db, aal1(owner), codes[0]!);
      await enrollTotp(db, owner.id);
      expect(await consume(db, aal1(owner), codes[0]!)).toMatchObject({ consumed: false });
      expect(await consume(db, aal1(owner), codes[1]!)).toMatchObject({ consumed: false });
      expect(await factorCount(db, owner.id)).toBe(1);
    }));

  it("another user cannot spend the owner's code", () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      await enrollTotp(db, owner.id);
      await enrollTotp(db, other.id);
      const codes = await generateCodes(db, owner);
      expect(await consume(db, aal1(other), codes[0]!)).toEqual({
        consumed: false,
        attempts_left: 4,
      });
      expect(await factorCount(db, owner.id)).toBe(1);
      expect(await factorCount(db, other.id)).toBe(1);
      expect(await remaining(db, owner)).toBe(10);
    }));

  it('locks after 5 wrong codes: even a right one is then refused', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const codes = await generateCodes(db, owner);
      const left: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        left.push((await consume(db, aal1(owner), 'WRONG-CODE1')).attempts_left);
      }
      expect(left).toEqual([4, 3, 2, 1, 0]);
      await expectCoded(
        queryAs(db, aal1(owner), 'select public.consume_two_factor_backup_code($1)', [codes[0]]),
        'too_many_attempts',
      );
      expect(await factorCount(db, owner.id)).toBe(1);
      const locked = await one<{ n: number }>(
        db,
        `select count(*)::int as n from public.user_security_events
         where user_id = $1 and action = 'two_factor.locked_out'`,
        [owner.id],
      );
      expect(locked.n).toBe(1);

      // The lockout lasts 15 minutes.
      await db.query(
        `update public.two_factor_backup_code_failures set created_at = now() - interval '16 minutes'
         where user_id = $1`,
        [owner.id],
      );
      expect(await consume(db, aal1(owner), codes[0]!)).toMatchObject({ consumed: true });
    }));

  it('a user who reads their own security events sees only theirs', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      await enrollTotp(db, owner.id);
      await generateCodes(db, owner);
      const own = await asActor(db, aal1(owner), (as) =>
        all(as, 'select action from public.user_security_events'),
      );
      expect(own).toEqual([{ action: 'two_factor.backup_codes_generated' }]);
      const others = await asActor(db, aal1(other), (as) =>
        all(as, 'select action from public.user_security_events'),
      );
      expect(others).toEqual([]);
      await expectRefused(
        queryAs(
          db,
          aal2(owner),
          `insert into public.user_security_events (user_id, action) values ($1, 'two_factor.disabled')`,
          [owner.id],
        ),
      );
    }));

  it('deleting a user with 2FA and codes still works', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      await generateCodes(db, owner);
      const deleted = await db.query('delete from auth.users where id = $1', [owner.id]);
      expect(deleted.rowCount).toBe(1);
    }));
});

describe('aal2 in row-level security', () => {
  it('app.requires_aal2(): aal2, or no verified factor', () =>
    withRollback(pool, async (db) => {
      const withFactor = await createUser(db);
      const without = await createUser(db);
      await enrollTotp(db, withFactor.id);
      const check = (actor: Parameters<typeof asActor>[1]) =>
        asActor(db, actor, (as) => one<{ ok: boolean }>(as, 'select app.requires_aal2() as ok'));
      expect(await check(aal1(withFactor))).toEqual({ ok: false });
      expect(await check(aal2(withFactor))).toEqual({ ok: true });
      expect(await check(aal1(without))).toEqual({ ok: true });
      await expectRefused(check(null));
    }));

  it('profile: aal1 cannot change it once 2FA is on; aal2 can; no 2FA needs no aal2', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const plain = await createUser(db);
      await enrollTotp(db, owner.id);
      const rename = (actor: Parameters<typeof asActor>[1], id: string) =>
        queryAs(db, actor, `update public.profiles set name = 'Renamed' where id = $1`, [id]);
      expect((await rename(aal1(owner), owner.id)).rowCount).toBe(0);
      expect((await rename(aal2(owner), owner.id)).rowCount).toBe(1);
      expect((await rename(aal1(plain), plain.id)).rowCount).toBe(1);
    }));

  it('API tokens: minting (through the RPC), renaming and revoking need aal2', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      await enrollTotp(db, owner.id);
      const token = await one<{ id: string }>(
        db,
        `insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix)
         values ($1, $2, 'CI', sha256('x'::bytea), 'slt_abcdef') returning id`,
        [owner.personalAccountId, owner.id],
      );
      // create_api_token runs as its owner, past RLS; the trigger still sees the caller's JWT.
      await db.query('savepoint mint');
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: owner.id, role: 'authenticated', aal: 'aal1' }),
      ]);
      await expectCoded(
        db.query(
          `insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix)
           values ($1, $2, 'Other', sha256('y'::bytea), 'slt_ghijkl')`,
          [owner.personalAccountId, owner.id],
        ),
        'aal2_required',
      );
      await db.query('rollback to savepoint mint');
      await db.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: owner.id, role: 'authenticated', aal: 'aal2' }),
      ]);
      const minted = await db.query(
        `insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix)
         values ($1, $2, 'Other', sha256('y'::bytea), 'slt_ghijkl')`,
        [owner.personalAccountId, owner.id],
      );
      expect(minted.rowCount).toBe(1);
      await db.query(`select set_config('request.jwt.claims', '', true)`);

      const renameAt = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, `update public.api_tokens set name = 'Renamed' where id = $1`, [
          token.id,
        ]);
      expect((await renameAt(aal1(owner))).rowCount).toBe(0);
      expect((await renameAt(aal2(owner))).rowCount).toBe(1);
      const revokeAt = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, `delete from public.api_tokens where id = $1`, [token.id]);
      expect((await revokeAt(aal1(owner))).rowCount).toBe(0);
      // Revoking also needs a recent password (the 423 confirmation).
      expect((await revokeAt(confirmed(owner, 'aal2'))).rowCount).toBe(1);
    }));

  it('team and organization admin changes need aal2 from admins with 2FA', () =>
    withRollback(pool, async (db) => {
      const { organization, team, owner, teamAdmin, member, limitedRole } = await createCast(db);
      await enrollTotp(db, owner.id);
      await enrollTotp(db, teamAdmin.id);

      const renameTeam = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, `update public.teams set name = 'Growth' where id = $1`, [team.id]);
      expect((await renameTeam(aal1(teamAdmin))).rowCount).toBe(0);
      expect((await renameTeam(aal2(teamAdmin))).rowCount).toBe(1);

      const demote = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(
          db,
          actor,
          `update public.team_members set role = 'viewer' where team_id = $1 and user_id = $2`,
          [team.id, member.id],
        );
      expect((await demote(aal1(teamAdmin))).rowCount).toBe(0);
      expect((await demote(aal2(teamAdmin))).rowCount).toBe(1);

      const newcomer = await createUser(db);
      await db.query(
        `insert into public.organization_users (organization_id, user_id, role_id)
         values ($1, $2, $3)`,
        [organization.id, newcomer.id, limitedRole.id],
      );
      const addToTeam = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(
          db,
          actor,
          `insert into public.team_members (team_id, user_id, role) values ($1, $2, 'viewer')`,
          [team.id, newcomer.id],
        );
      // Row-level security would refuse it too; the aal2 trigger (002000) answers first.
      await expectCoded(addToTeam(aal1(teamAdmin)), 'aal2_required');
      expect((await addToTeam(aal2(teamAdmin))).rowCount).toBe(1);

      const renameOrg = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, `update public.organizations set name = 'Acme 2' where id = $1`, [
          organization.id,
        ]);
      expect((await renameOrg(aal1(owner))).rowCount).toBe(0);
      expect((await renameOrg(aal2(owner))).rowCount).toBe(1);

      const renameRole = (actor: Parameters<typeof asActor>[1]) =>
        queryAs(db, actor, `update public.organization_roles set name = 'Renamed' where id = $1`, [
          limitedRole.id,
        ]);
      expect((await renameRole(aal1(owner))).rowCount).toBe(0);
      expect((await renameRole(aal2(owner))).rowCount).toBe(1);
    }));

  it('reads stay open at aal1', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin } = await createCast(db);
      await enrollTotp(db, teamAdmin.id);
      const seen = await asActor(db, aal1(teamAdmin), (as) =>
        all(as, 'select id from public.teams where id = $1', [team.id]),
      );
      expect(seen).toEqual([{ id: team.id }]);
    }));
});
