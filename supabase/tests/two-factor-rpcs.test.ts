import { describe, expect, it } from 'vitest';
import {
  aal1,
  aal2,
  createCast,
  createInvitation,
  createPlan,
  createUser,
  createUsers,
  enrollTotp,
  expectCoded,
  one,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
  type TestUser,
} from './support/index.ts';

/**
 * aal2 for the organization and team writes of security-definer RPCs
 * (20261122002000_aal2_rpc_writes.sql): a user with a verified factor is refused at aal1 and
 * served at aal2; a user without one needs nothing more.
 */
const pool = useDatabase();

describe('organization and team RPCs with two-factor on', () => {
  it('create_organization: aal1 refused (aal2_required), aal2 creates it', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db, { features: ['support_teams'] });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      await enrollTotp(db, user.id);
      const create = (actor: ReturnType<typeof aal1>, slug: string) =>
        queryAs<{ id: string }>(
          db,
          actor,
          `select public.create_organization('Globex', $1) as id`,
          [slug],
        );
      await expectCoded(create(aal1(user), `globex-${user.id.slice(0, 8)}`), 'aal2_required');
      const { rows } = await create(aal2(user), `globex-${user.id.slice(0, 8)}`);
      expect(rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    }));

  it('create_team and archive_organization: the owner needs aal2 once 2FA is on', () =>
    withRollback(pool, async (db) => {
      const { organization, owner } = await createCast(db);
      await enrollTotp(db, owner.id);
      await expectCoded(
        queryAs(db, aal1(owner), `select public.create_team('Support', 'support', $1)`, [
          organization.id,
        ]),
        'aal2_required',
      );
      await expectCoded(
        queryAs(db, aal1(owner), `select public.archive_organization($1, true)`, [organization.id]),
        'aal2_required',
      );

      const team = await queryAs<{ id: string }>(
        db,
        aal2(owner),
        `select public.create_team('Support', 'support', $1) as id`,
        [organization.id],
      );
      expect(team.rows).toHaveLength(1);
      const archived = await queryAs<{ archived: boolean }>(
        db,
        aal2(owner),
        `select (public.archive_organization($1, true)).archived_at is not null as archived`,
        [organization.id],
      );
      expect(archived.rows).toEqual([{ archived: true }]);
    }));

  it('accept_invitation: an invitee with 2FA joins only at aal2; one without joins at aal1', () =>
    withRollback(pool, async (db) => {
      const { team, owner } = await createCast(db);
      const [withFactor, withoutFactor] = await createUsers(db, [{}, {}]);
      await enrollTotp(db, withFactor.id);
      const invite = (invitee: TestUser) =>
        createInvitation(db, {
          inviterId: owner.id,
          email: invitee.email,
          teamId: team.id,
          teamRole: 'member',
        });
      const [forFactor, forPlain] = [await invite(withFactor), await invite(withoutFactor)];
      const accept = (actor: ReturnType<typeof aal1>, invitationId: string) =>
        queryAs(db, actor, `select public.accept_invitation($1)`, [invitationId]);
      const membership = (user: TestUser) =>
        one<{ n: number }>(
          db,
          `select count(*)::int as n from public.team_members where team_id = $1 and user_id = $2`,
          [team.id, user.id],
        );

      await expectCoded(accept(aal1(withFactor), forFactor.id), 'aal2_required');
      await accept(aal2(withFactor), forFactor.id);
      await accept(aal1(withoutFactor), forPlain.id);

      expect(await membership(withFactor)).toEqual({ n: 1 });
      expect(await membership(withoutFactor)).toEqual({ n: 1 });
    }));
});
