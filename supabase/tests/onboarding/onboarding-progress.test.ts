import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDomain, createLink } from '../links/fixtures.ts';
import {
  addTeamMember,
  createInvitation,
  createTeam,
  createUsers,
  enrollTotp,
  expectCoded,
  expectRefused,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** public.onboarding_progress: the get-started checklist, by actor. */
const pool = useDatabase();

const NOTHING = {
  link_created: false,
  click_received: false,
  domain_added: false,
  two_factor_enabled: false,
  team_invited: false,
};

async function progress(db: pg.ClientBase, userId: string | null) {
  const answer = await queryAs(db, userId, `select * from public.onboarding_progress()`);
  return answer.rows[0] as unknown;
}

describe('onboarding_progress', () => {
  it('a new user has taken no step', () =>
    withRollback(pool, async (db) => {
      const [me] = await createUsers(db, [{}]);
      expect(await progress(db, me.id)).toEqual(NOTHING);
    }));

  it("ticks each step from the owner's own data, and another user's data ticks nothing", () =>
    withRollback(pool, async (db) => {
      const [me, other] = await createUsers(db, [{}, {}]);
      const common = await createDomain(db);
      const link = await createLink(db, {
        accountId: me.personalAccountId,
        createdBy: me.id,
        domainId: common.id,
      });
      // A bot's click is no first click; a person's is.
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, is_bot) values (now(), $1, $2, true)`,
        [link.id, me.personalAccountId],
      );
      expect(await progress(db, me.id)).toEqual({ ...NOTHING, link_created: true });
      await db.query(
        `insert into public.clicks (time, alias_id, account_id) values (now(), $1, $2)`,
        [link.id, me.personalAccountId],
      );
      await createDomain(db, { kind: 'branded', accountId: me.personalAccountId, verified: false });
      await enrollTotp(db, me.id);
      const team = await createTeam(db, { ownerId: me.id });
      await createInvitation(db, {
        inviterId: me.id,
        email: 'friend@shortlane.test',
        teamId: team.id,
        teamRole: 'member',
      });
      const all = {
        link_created: true,
        click_received: true,
        domain_added: true,
        two_factor_enabled: true,
        team_invited: true,
      };
      expect(await progress(db, me.id)).toEqual(all);
      // The other user sees their own (empty) progress, never the owner's.
      expect(await progress(db, other.id)).toEqual(NOTHING);
    }));

  it('a team member besides the owner counts as invited; a deleted domain does not count', () =>
    withRollback(pool, async (db) => {
      const [me, friend] = await createUsers(db, [{}, {}]);
      const team = await createTeam(db, { ownerId: me.id });
      await addTeamMember(db, { teamId: team.id, userId: me.id, role: 'admin' });
      expect(await progress(db, me.id)).toEqual(NOTHING);
      await addTeamMember(db, { teamId: team.id, userId: friend.id, role: 'member' });
      await createDomain(db, { kind: 'branded', accountId: me.personalAccountId, isDeleted: true });
      expect(await progress(db, me.id)).toEqual({ ...NOTHING, team_invited: true });
      // Being a member of someone else's team is not inviting anyone.
      expect(await progress(db, friend.id)).toEqual(NOTHING);
    }));

  it('a guest may not call it', () =>
    withRollback(pool, async (db) => {
      await expectRefused(queryAs(db, null, `select * from public.onboarding_progress()`));
    }));

  it('a signed-in role without a user is permission_denied', () =>
    withRollback(pool, async (db) => {
      await db.query(`set local role authenticated`);
      await expectCoded(
        db.query(`select * from public.onboarding_progress()`),
        'permission_denied',
      );
    }));
});
