import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createUser,
  expectCoded,
  expectRefused,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
  type Actor,
} from '../support/index.ts';
import { createDomain, createLink, givePlan } from './fixtures.ts';

/**
 * Branded domains as customers manage them (migration 20261122004500): who may add, verify,
 * edit and delete personal, team and organization domains; deletion frees the name; the plan's
 * domain limits; vanity subdomains claimed live.
 */
const pool = useDatabase();

const DOMAIN_FEATURES = [
  'add_branded_domains',
  'add_vanity_subdomains',
  'domain_root_redirect',
  'domain_404_redirect',
];

const insertDomain = (db: pg.ClientBase, actor: Actor, accountId: string, kind = 'branded') =>
  asActor(db, actor, (as) =>
    one<{ id: string; domain: string; verification_status: string }>(
      as,
      `insert into public.domains (domain, kind, account_id) values ($1, $2, $3)
       returning id, domain, verification_status`,
      [`bd-${uniqueSuffix()}.test`, kind, accountId],
    ),
  );

const addNamed = (db: pg.ClientBase, actor: Actor, accountId: string, name: string) =>
  asActor(db, actor, (as) =>
    as.query(
      `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)
       returning id`,
      [name, accountId],
    ),
  );

const remove = (db: pg.ClientBase, actor: Actor, id: string) =>
  asActor(db, actor, (as) =>
    as.query(`update public.domains set is_deleted = true where id = $1`, [id]),
  );

const claimVanity = (
  db: pg.ClientBase,
  actor: Actor,
  accountId: string,
  label: string,
  baseId?: string,
) =>
  asActor(db, actor, (as) =>
    one<{ id: string; domain: string; verification_status: string }>(
      as,
      `select id, domain, verification_status
       from public.create_vanity_subdomain($1, $2, $3)`,
      [accountId, label, baseId ?? null],
    ),
  );

describe('branded domains by actor', () => {
  it('personal, team and organization domains: who adds, edits redirects, asks for a check and deletes', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['domains'] });
      const personalOwner = await createUser(db);
      // An organization user without the domains permission.
      const plainRole = await one<{ id: string }>(
        db,
        `insert into public.organization_roles (organization_id, name, permissions)
         values ($1, 'Plain', '{audit}') returning id`,
        [cast.organization.id],
      );
      const plain = await createUser(db);
      await db.query(
        `insert into public.organization_users (organization_id, user_id, role_id)
         values ($1, $2, $3)`,
        [cast.organization.id, plain.id, plainRole.id],
      );
      for (const account of [
        personalOwner.personalAccountId,
        cast.team.accountId,
        cast.organization.accountId,
      ]) {
        await givePlan(db, account, { features: DOMAIN_FEATURES });
      }

      const scopes = [
        {
          name: 'personal',
          accountId: personalOwner.personalAccountId,
          kind: 'branded',
          allowed: [personalOwner],
          refused: [cast.owner, cast.teamAdmin, cast.stranger, cast.orgUser],
        },
        {
          name: 'team',
          accountId: cast.team.accountId,
          kind: 'branded',
          // The organization's owner, its users with `domains`, and the team's admins.
          allowed: [cast.owner, cast.orgUser, cast.teamAdmin],
          refused: [cast.member, cast.viewer, cast.stranger, plain, cast.supervisor],
        },
        {
          name: 'organization',
          accountId: cast.organization.accountId,
          kind: 'organization',
          allowed: [cast.owner, cast.orgUser],
          refused: [cast.teamAdmin, cast.member, cast.viewer, cast.stranger, plain],
        },
      ];
      for (const scope of scopes) {
        for (const user of scope.allowed) {
          const row = await insertDomain(db, user.id, scope.accountId, scope.kind);
          expect(row.verification_status, `${scope.name}: ${user.id}`).toBe('pending');
          // Edit: a root and a 404 redirect.
          const edited = await asActor(db, user.id, (as) =>
            as.query(
              `update public.domains set root_redirect_url = 'https://example.com/',
                 not_found_redirect_url = 'https://example.com/404' where id = $1`,
              [row.id],
            ),
          );
          expect(edited.rowCount, `${scope.name} edit`).toBe(1);
          // Verify: start again is theirs (the DNS check itself is the function's).
          const restarted = await asActor(db, user.id, (as) =>
            one<{ verification_status: string }>(
              as,
              `select verification_status from public.restart_domain_verification($1)`,
              [row.id],
            ),
          );
          expect(restarted.verification_status).toBe('pending');
          expect((await remove(db, user.id, row.id)).rowCount, `${scope.name} delete`).toBe(1);
        }
        const target = await createDomain(db, {
          kind: scope.kind as 'branded' | 'organization',
          accountId: scope.accountId,
          verified: false,
        });
        for (const user of scope.refused) {
          const why = `${scope.name}: refused ${user.id}`;
          await expect(
            insertDomain(db, user.id, scope.accountId, scope.kind),
            why,
          ).rejects.toMatchObject({ code: '42501' });
          const edited = await asActor(db, user.id, (as) =>
            as.query(
              `update public.domains set root_redirect_url = 'https://evil.example/' where id = $1`,
              [target.id],
            ),
          );
          expect(edited.rowCount, why).toBe(0);
          expect((await remove(db, user.id, target.id)).rowCount, why).toBe(0);
          await expectCoded(
            asActor(db, user.id, (as) =>
              as.query(`select public.restart_domain_verification($1)`, [target.id]),
            ),
            'domain_not_found',
          );
        }
      }

      // Staff manage any of them.
      const any = await createDomain(db, {
        kind: 'branded',
        accountId: personalOwner.personalAccountId,
      });
      expect((await remove(db, cast.staff.id, any.id)).rowCount).toBe(1);
      // Anonymous visitors cannot write at all.
      await expectRefused(insertDomain(db, null, personalOwner.personalAccountId));
    }));

  it('root and 404 redirects need their plan features', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, { features: ['add_branded_domains'] });
      const row = await insertDomain(db, user.id, user.personalAccountId);
      for (const column of ['root_redirect_url', 'not_found_redirect_url']) {
        await expectRefused(
          asActor(db, user.id, (as) =>
            as.query(`update public.domains set ${column} = 'https://example.com/' where id = $1`, [
              row.id,
            ]),
          ),
        );
      }
    }));
});

describe('deleting a domain', () => {
  it('stops its links and frees the name for anyone, for good', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const other = await createUser(db);
      for (const user of [owner, other]) {
        await givePlan(db, user.personalAccountId, { features: DOMAIN_FEATURES });
      }
      const name = `gone-${uniqueSuffix()}.test`;
      const { rows } = await addNamed(db, owner.id, owner.personalAccountId, name);
      const id = (rows[0] as { id: string }).id;
      const link = await createLink(db, {
        accountId: owner.personalAccountId,
        createdBy: owner.id,
        domainId: id,
      });
      const resolve = () =>
        all<{ alias_id: string | null }>(
          db,
          `select alias_id from app.resolve_short_links($1, $2)`,
          [[name], [link.alias]],
        );
      expect(await resolve()).toHaveLength(1);
      await expectCoded(addNamed(db, other.id, other.personalAccountId, name), 'domain_taken');

      expect((await remove(db, owner.id, id)).rowCount).toBe(1);
      const after = await one<{ domain: string; deleted_domain: string; alias_count: number }>(
        db,
        `select d.domain, d.deleted_domain,
           (select count(*)::int from public.aliases a where a.domain_id = d.id) as alias_count
         from public.domains d where d.id = $1`,
        [id],
      );
      expect(after).toMatchObject({ deleted_domain: name, alias_count: 1 });
      expect(after.domain).not.toBe(name);
      // No domain of that name: its links no longer answer.
      expect(await resolve()).toHaveLength(0);

      // Anyone may add the name again, as a new pending domain with a new token.
      const again = await addNamed(db, other.id, other.personalAccountId, name);
      expect(again.rowCount).toBe(1);
      // The deleted row stays deleted.
      await expectCoded(
        asActor(db, owner.id, (as) =>
          as.query(`update public.domains set is_deleted = false where id = $1`, [id]),
        ),
        'domain_deleted_for_good',
      );
      // Renaming a domain is still staff's, not the owner's.
      await expectCoded(
        asActor(db, other.id, (as) =>
          as.query(`update public.domains set deleted_domain = 'x' where domain = $1`, [name]),
        ),
        'protected_column',
        { detail: 'deleted_domain cannot be changed.', hint: 'deleted_domain' },
      );
    }));
});

describe('plan limits', () => {
  it('max_domains and max_domains_subdomains (Pro: 1 and 1): the second domain is refused until the first is deleted', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, {
        features: DOMAIN_FEATURES,
        options: { max_domains: 1, max_domains_subdomains: 1 },
      });
      const first = await insertDomain(db, user.id, user.personalAccountId);
      await expectCoded(insertDomain(db, user.id, user.personalAccountId), 'domain_limit_reached');
      await remove(db, user.id, first.id);
      expect((await insertDomain(db, user.id, user.personalAccountId)).id).toBeTruthy();
    }));

  it('max_subdomains counts names under another name the account holds; the sum is capped apart', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, {
        features: DOMAIN_FEATURES,
        options: { max_domains: 2, max_subdomains: 1, max_domains_subdomains: 3 },
      });
      const apex = `apex-${uniqueSuffix()}.test`;
      const add = (name: string) => addNamed(db, user.id, user.personalAccountId, name);
      await add(apex);
      await add(`go.${apex}`);
      await expectCoded(add(`links.${apex}`), 'subdomain_limit_reached');
      await add(`second-${uniqueSuffix()}.test`);
      await expectCoded(add(`third-${uniqueSuffix()}.test`), 'domain_limit_reached');
    }));

  it('only the combined cap (Enterprise: 25 domains and subdomains)', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await givePlan(db, user.personalAccountId, {
        features: DOMAIN_FEATURES,
        options: { max_domains_subdomains: 2 },
      });
      const apex = `apex-${uniqueSuffix()}.test`;
      const add = (name: string) => addNamed(db, user.id, user.personalAccountId, name);
      await add(apex);
      await add(`go.${apex}`);
      await expectCoded(add(`other-${uniqueSuffix()}.test`), 'domains_subdomains_limit_reached');
      await expectCoded(add(`links.${apex}`), 'domains_subdomains_limit_reached');
    }));

  it('a team inside an organization counts its own domains against the organization plan', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await givePlan(db, cast.organization.accountId, {
        features: DOMAIN_FEATURES,
        options: { max_domains_subdomains: 1 },
      });
      await insertDomain(db, cast.teamAdmin.id, cast.team.accountId);
      await expectCoded(
        insertDomain(db, cast.teamAdmin.id, cast.team.accountId),
        'domains_subdomains_limit_reached',
      );
      // The organization's own count is apart.
      await insertDomain(db, cast.owner.id, cast.organization.accountId, 'organization');
    }));

  it('staff and set-up code are not limited', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const staff = await createUser(db, { developer: true });
      await givePlan(db, user.personalAccountId, {
        features: DOMAIN_FEATURES,
        options: { max_domains_subdomains: 0 },
      });
      await expectCoded(
        insertDomain(db, user.id, user.personalAccountId),
        'domains_subdomains_limit_reached',
      );
      await insertDomain(db, staff.id, user.personalAccountId);
      await createDomain(db, { kind: 'branded', accountId: user.personalAccountId });
      const usage = await asActor(db, user.id, (as) =>
        one<{ domains: string; max_domains_subdomains: string }>(
          as,
          `select * from public.account_domain_usage($1)`,
          [user.personalAccountId],
        ),
      );
      expect(usage).toMatchObject({ domains: '2', max_domains_subdomains: '0' });
    }));
});

describe('vanity subdomains', () => {
  const baseDomain = (db: pg.ClientBase) =>
    createDomain(db, { kind: 'common', domain: `base${uniqueSuffix()}.links.test` }).then(
      async (d) => {
        await db.query(`update public.domains set is_base = true where id = $1`, [d.id]);
        return d;
      },
    );

  it('claims name.<base> live at once, within max_vanity_subdomains, unique and not reserved', () =>
    withRollback(pool, async (db) => {
      const base = await baseDomain(db);
      const user = await createUser(db);
      const other = await createUser(db);
      for (const u of [user, other]) {
        await givePlan(db, u.personalAccountId, {
          features: DOMAIN_FEATURES,
          options: { max_vanity_subdomains: 1 },
        });
      }
      const label = `me${uniqueSuffix()}`;
      const claimed = await claimVanity(db, user.id, user.personalAccountId, label, base.id);
      expect(claimed).toMatchObject({
        domain: `${label}.${base.domain}`,
        verification_status: 'verified',
      });
      const resolved = await one<{ domain_usable: boolean }>(
        db,
        `select domain_usable from app.resolve_short_links($1, array[''])`,
        [[claimed.domain]],
      );
      expect(resolved.domain_usable).toBe(true);

      await expectCoded(
        claimVanity(db, user.id, user.personalAccountId, `two${uniqueSuffix()}`, base.id),
        'vanity_subdomain_limit_reached',
      );
      await expectCoded(
        claimVanity(db, other.id, other.personalAccountId, label.toUpperCase(), base.id),
        'subdomain_taken',
      );
      await expectCoded(
        claimVanity(db, other.id, other.personalAccountId, 'www', base.id),
        'subdomain_reserved',
      );
      await expectCoded(
        claimVanity(db, other.id, other.personalAccountId, '', base.id),
        'subdomain_required',
      );
      for (const bad of ['a', '-dash', 'dash-', 'two.labels', 'under_score']) {
        await expectCoded(
          claimVanity(db, other.id, other.personalAccountId, bad, base.id),
          'subdomain_invalid',
        );
      }
      const notBase = await createDomain(db, { kind: 'common' });
      await expectCoded(
        claimVanity(db, other.id, other.personalAccountId, `x${uniqueSuffix()}`, notBase.id),
        'base_domain_invalid',
      );
      // Deleting frees both the place and the name.
      await remove(db, user.id, claimed.id);
      const again = await claimVanity(db, other.id, other.personalAccountId, label, base.id);
      expect(again.domain).toBe(claimed.domain);
    }));

  it('needs the domains permission and add_vanity_subdomains; never a direct insert', () =>
    withRollback(pool, async (db) => {
      const base = await baseDomain(db);
      const cast = await createCast(db);
      const free = await createUser(db);
      await givePlan(db, cast.team.accountId, { features: DOMAIN_FEATURES });
      await givePlan(db, free.personalAccountId, { features: ['add_branded_domains'] });
      const teamClaim = await claimVanity(
        db,
        cast.teamAdmin.id,
        cast.team.accountId,
        `t${uniqueSuffix()}`,
        base.id,
      );
      expect(teamClaim.verification_status).toBe('verified');
      for (const user of [cast.member, cast.viewer, cast.stranger]) {
        await expectCoded(
          claimVanity(db, user.id, cast.team.accountId, `t${uniqueSuffix()}`, base.id),
          'permission_denied',
        );
      }
      await expectCoded(
        claimVanity(db, free.id, free.personalAccountId, `f${uniqueSuffix()}`, base.id),
        'feature_not_allowed',
      );
      await expectCoded(
        asActor(db, cast.teamAdmin.id, (as) =>
          as.query(
            `insert into public.domains (domain, kind, account_id, base_domain_id)
             values ($1, 'branded', $2, $3)`,
            [`d${uniqueSuffix()}.${base.domain}`, cast.team.accountId, base.id],
          ),
        ),
        'vanity_through_rpc',
      );
      const bases = await asActor(db, null, (as) =>
        all<{ id: string }>(as, `select id from public.vanity_base_domains()`),
      );
      expect(bases.map((b) => b.id)).toContain(base.id);
    }));
});
