import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createOrganization,
  createTeam,
  createUser,
  expectProtectedColumn,
  expectRefused,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, givePlan, ids, LINK_FEATURES } from './fixtures.ts';

/**
 * Domains by actor: the common catalogue is public; an organization's domains reach its people
 * and the teams they apply to; branded domains stay with their account; managing a domain takes
 * the `domains` permission and the plan's domain features; moderation and verification are
 * staff's.
 */
const pool = useDatabase();

describe('domains by actor', () => {
  it('everyone reads the common domains that are not deleted; owned domains stay with their people', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const otherTeam = await createTeam(db, {
        ownerId: cast.owner.id,
        organizationId: cast.organization.id,
      });
      const common = await createDomain(db, { allowForGuests: true });
      const deleted = await createDomain(db, { isDeleted: true });
      const forAllTeams = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
      });
      const forOtherTeam = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
        forAllTeams: false,
        teamIds: [otherTeam.id],
      });
      const branded = await createDomain(db, {
        kind: 'branded',
        accountId: cast.stranger.personalAccountId,
      });
      const all = [common, deleted, forAllTeams, forOtherTeam, branded].map((d) => d.id);
      const expected: Record<string, string[]> = {
        owner: [common.id, forAllTeams.id, forOtherTeam.id],
        // links.read on the organization's account: all its domains.
        orgUser: [common.id, forAllTeams.id, forOtherTeam.id],
        supervisor: [common.id, forAllTeams.id, forOtherTeam.id],
        // Through the team: only the domains that apply to it.
        teamAdmin: [common.id, forAllTeams.id],
        member: [common.id, forAllTeams.id],
        viewer: [common.id, forAllTeams.id],
        stranger: [common.id, branded.id],
        staff: all,
      };
      for (const [actor, domainIds] of Object.entries(expected)) {
        const userId = cast[actor as keyof typeof cast] as { id: string };
        const seen = await asActor(db, userId.id, (as) =>
          ids(as, `select id from public.domains where id = any ($1)`, [all]),
        );
        expect(seen, actor).toEqual([...domainIds].sort());
      }
      const anonymous = await asActor(db, null, (as) =>
        ids(as, `select id from public.domains where id = any ($1)`, [all]),
      );
      expect(anonymous).toEqual([common.id]);
      await asActor(db, null, (as) =>
        expectRefused(as.query(`select domain_id from public.domain_teams`)),
      );
    }));

  it('a workspace owner with add_branded_domains adds a pending branded domain; without it, refused', () =>
    withRollback(pool, async (db) => {
      const paid = await createUser(db);
      const free = await createUser(db);
      await givePlan(db, paid.personalAccountId, { features: ['add_branded_domains'] });
      const insert = `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
        returning id, verification_status, is_blocked`;
      const row = await asActor(db, paid.id, (as) =>
        one<{ verification_status: string; is_blocked: boolean }>(as, insert, [
          `brand-${uniqueSuffix()}.test`,
          paid.personalAccountId,
        ]),
      );
      expect(row).toMatchObject({ verification_status: 'pending', is_blocked: false });
      await asActor(db, free.id, (as) =>
        expectRefused(as.query(insert, [`brand-${uniqueSuffix()}.test`, free.personalAccountId])),
      );
      // Someone else's account, and a self-verified domain, are refused too.
      await asActor(db, paid.id, (as) =>
        expectRefused(as.query(insert, [`brand-${uniqueSuffix()}.test`, free.personalAccountId])),
      );
      await asActor(db, paid.id, (as) =>
        expectRefused(
          as.query(
            `insert into public.domains (domain, kind, account_id, verification_status, verified_at)
             values ($1, 'branded', $2, 'verified', now())`,
            [`brand-${uniqueSuffix()}.test`, paid.personalAccountId],
          ),
        ),
      );
    }));

  it('only staff add common domains', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const insert = `insert into public.domains (domain, kind) values ($1, 'common')`;
      await asActor(db, cast.owner.id, (as) =>
        expectRefused(as.query(insert, [`common-${uniqueSuffix()}.test`])),
      );
      await asActor(db, cast.staff.id, (as) => as.query(insert, [`common-${uniqueSuffix()}.test`]));
    }));

  it('team admins manage the team domains; members and viewers cannot', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, { features: LINK_FEATURES });
      const insert = `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
        returning id`;
      const domain = await asActor(db, cast.teamAdmin.id, (as) =>
        one<{ id: string }>(as, insert, [`team-${uniqueSuffix()}.test`, cast.team.accountId]),
      );
      for (const actor of ['member', 'viewer'] as const) {
        await asActor(db, cast[actor].id, (as) =>
          expectRefused(as.query(insert, [`team-${uniqueSuffix()}.test`, cast.team.accountId])),
        );
        const updated = await asActor(db, cast[actor].id, (as) =>
          as.query(`update public.domains set redirect_status = 302 where id = $1`, [domain.id]),
        );
        expect(updated.rowCount, actor).toBe(0);
      }
      const updated = await asActor(db, cast.teamAdmin.id, (as) =>
        as.query(
          `update public.domains set redirect_status = 302, is_deleted = true where id = $1`,
          [domain.id],
        ),
      );
      expect(updated.rowCount).toBe(1);
    }));

  it('owners cannot unblock, verify, re-own or rename their domain; staff can moderate', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const staff = await createUser(db, { developer: true });
      const domain = await createDomain(db, {
        kind: 'branded',
        accountId: user.personalAccountId,
        verified: false,
        isBlocked: true,
      });
      const changes: [string, string][] = [
        ['is_blocked', 'is_blocked = false'],
        ['verification_status', `verification_status = 'verified', verified_at = now()`],
        ['domain', `domain = 'renamed-${uniqueSuffix()}.test'`],
        ['allow_for_guests', 'allow_for_guests = true'],
      ];
      for (const [column, set] of changes) {
        await asActor(db, user.id, (as) =>
          expectProtectedColumn(
            as.query(`update public.domains set ${set} where id = $1`, [domain.id]),
            column,
          ),
        );
      }
      const moderated = await asActor(db, staff.id, (as) =>
        as.query(`update public.domains set is_blocked = false where id = $1`, [domain.id]),
      );
      expect(moderated.rowCount).toBe(1);
    }));

  it('a domain keeps to the shape of its kind', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const common = await createDomain(db);
      const bad: [string, Record<string, unknown>][] = [
        [
          'a common domain has no owner',
          { kind: 'common', account_id: cast.owner.personalAccountId },
        ],
        [
          'an organization domain belongs to an organization',
          { kind: 'organization', account_id: cast.team.accountId },
        ],
        [
          'a branded domain does not belong to an organization',
          { kind: 'branded', account_id: cast.organization.accountId },
        ],
        [
          'guest flags are for common domains',
          { kind: 'branded', account_id: cast.owner.personalAccountId, allow_for_guests: true },
        ],
        [
          'a vanity subdomain lives under its base',
          { kind: 'branded', account_id: cast.owner.personalAccountId, base_domain_id: common.id },
        ],
      ];
      for (const [why, values] of bad) {
        const columns = Object.keys(values);
        await db.query('savepoint shape');
        await expect(
          db.query(
            `insert into public.domains (domain, ${columns.join(', ')})
             values ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})`,
            [`shape-${uniqueSuffix()}.test`, ...Object.values(values)],
          ),
          why,
        ).rejects.toMatchObject({ code: '23514' });
        await db.query('rollback to savepoint shape');
      }
      const vanity = await createDomain(db, {
        kind: 'branded',
        accountId: cast.owner.personalAccountId,
        baseDomainId: common.id,
        domain: `me.${common.domain}`,
      });
      expect(vanity.id).toBeTruthy();
    }));
});

describe('the teams an organization domain applies to', () => {
  it('holders of the domains permission choose teams of their own organization only', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const domain = await createDomain(db, {
        kind: 'organization',
        accountId: cast.organization.accountId,
        forAllTeams: false,
      });
      const insert = `insert into public.domain_teams (domain_id, team_id) values ($1, $2)`;
      for (const actor of ['member', 'viewer', 'supervisor', 'stranger'] as const) {
        await asActor(db, cast[actor].id, (as) =>
          expectRefused(as.query(insert, [domain.id, cast.team.id])),
        );
      }
      // The limited role of the cast holds `domains`.
      await asActor(db, cast.orgUser.id, (as) => as.query(insert, [domain.id, cast.team.id]));
      const seen = await asActor(db, cast.member.id, (as) =>
        ids(as, `select id from public.domains where id = $1`, [domain.id]),
      );
      expect(seen).toEqual([domain.id]);
      const elsewhere = await createOrganization(db, { ownerId: cast.owner.id });
      const foreignTeam = await createTeam(db, {
        ownerId: cast.owner.id,
        organizationId: elsewhere.id,
      });
      await asActor(db, cast.owner.id, (as) =>
        expect(as.query(insert, [domain.id, foreignTeam.id])).rejects.toMatchObject({
          code: '23514',
        }),
      );
    }));
});

describe('reference data', () => {
  it('everyone reads reserved aliases and operation costs; signed-in users read the route vocabulary; only staff change them', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      for (const table of ['reserved_aliases', 'operation_costs']) {
        const anonymous = await asActor(db, null, (as) =>
          as.query(`select * from public.${table}`),
        );
        expect(anonymous.rowCount, table).toBeGreaterThan(0);
      }
      for (const table of [
        'route_values',
        'route_conditions',
        'route_operations',
        'route_url_conditions',
      ]) {
        await asActor(db, null, (as) => expectRefused(as.query(`select * from public.${table}`)));
        const signedIn = await asActor(db, cast.stranger.id, (as) =>
          as.query(`select * from public.${table}`),
        );
        expect(signedIn.rowCount, table).toBeGreaterThan(0);
      }
      await asActor(db, cast.owner.id, (as) =>
        expectRefused(as.query(`insert into public.reserved_aliases (alias) values ('mine')`)),
      );
      await asActor(db, null, (as) =>
        expectRefused(as.query(`insert into public.reserved_aliases (alias) values ('mine')`)),
      );
      const updated = await asActor(db, cast.owner.id, (as) =>
        as.query(`update public.operation_costs set credits = 0`),
      );
      expect(updated.rowCount).toBe(0);
      await asActor(db, cast.staff.id, (as) =>
        as.query(`insert into public.reserved_aliases (alias, reason) values ($1, 'brand')`, [
          `brand${uniqueSuffix()}`,
        ]),
      );
    }));
});
