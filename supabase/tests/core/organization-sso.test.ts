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
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * Organization single sign-on in Postgres (20261122005000), by actor: who reads the setting and
 * its domains, who claims domains and sets options (holders of `sso` on a plan with the `sso`
 * feature), the password hook's refusal at "require SSO" domains, and the first SSO sign-in
 * joining the organization with the default role.
 */
const pool = useDatabase();

async function withSso(db: pg.ClientBase, cast: Cast, requireSso = false) {
  await db.query(`update public.accounts set features = '{sso}' where id = $1`, [
    cast.organization.accountId,
  ]);
  const providerId = crypto.randomUUID();
  await db.query(
    `insert into public.organization_sso (organization_id, provider_id, entity_id, require_sso,
       default_role_id)
     values ($1, $2, 'https://idp.example.test/metadata', $3, $4)`,
    [cast.organization.id, providerId, requireSso, cast.limitedRole.id],
  );
  return providerId;
}

const claim = (db: pg.ClientBase, actor: string | null, organizationId: string, domain: string) =>
  asActor(db, actor, (as) =>
    one<{ id: string; status: string; verification_token: string }>(
      as,
      'select * from public.claim_sso_domain($1, $2)',
      [organizationId, domain],
    ),
  );

describe('organization SSO settings', () => {
  it('people of the organization and staff read the setting; strangers and guests do not', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await withSso(db, cast);
      for (const actor of [cast.owner, cast.orgUser, cast.member, cast.viewer, cast.staff]) {
        const rows = await asActor(db, actor.id, (as) =>
          all(
            as,
            'select organization_id from public.organization_sso where organization_id = $1',
            [cast.organization.id],
          ),
        );
        expect(rows).toEqual([{ organization_id: cast.organization.id }]);
      }
      const strangers = await asActor(db, cast.stranger.id, (as) =>
        all(as, 'select organization_id from public.organization_sso'),
      );
      expect(strangers).toEqual([]);
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.organization_sso')),
      );
      // Nobody writes the table directly: the function does, with the service role.
      await expectRefused(
        asActor(db, cast.owner.id, (as) =>
          as.query('update public.organization_sso set require_sso = true'),
        ),
      );
    }));

  it('holders of SSO claim domains and set options; others are refused with codes', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['sso'] });
      const domain = `corp-${crypto.randomUUID().slice(0, 6)}.example.test`;
      await expectCoded(
        claim(db, cast.owner.id, cast.organization.id, domain),
        'sso_plan_required',
      );
      await withSso(db, cast);
      const claimed = await claim(
        db,
        cast.orgUser.id,
        cast.organization.id,
        ` ${domain.toUpperCase()}.`,
      );
      expect(claimed).toMatchObject({ status: 'pending' });
      expect(claimed.verification_token).toMatch(/^shortlane-sso=[0-9a-f]{32}$/);
      await expectCoded(claim(db, cast.owner.id, cast.organization.id, domain), 'sso_domain_taken');
      await expectCoded(
        claim(db, cast.owner.id, cast.organization.id, 'not a domain'),
        'sso_domain_invalid',
      );
      for (const actor of [cast.supervisor, cast.teamAdmin, cast.member, cast.stranger]) {
        await expectCoded(
          claim(db, actor.id, cast.organization.id, `x.${domain}`),
          'sso_forbidden',
        );
      }
      await expectCoded(
        asActor(db, cast.member.id, (as) =>
          as.query('select public.set_sso_options($1, null, true)', [cast.organization.id]),
        ),
        'sso_forbidden',
      );
      await expectCoded(
        asActor(db, cast.owner.id, (as) =>
          as.query('select public.set_sso_options($1, $2, true)', [
            cast.organization.id,
            crypto.randomUUID(),
          ]),
        ),
        'role_invalid',
      );
      const options = await asActor(db, cast.owner.id, (as) =>
        one(as, 'select require_sso, default_role_id from public.set_sso_options($1, $2, true)', [
          cast.organization.id,
          cast.supervisorRole.id,
        ]),
      );
      expect(options).toEqual({ require_sso: true, default_role_id: cast.supervisorRole.id });
      // Staff vouch for a domain; nobody else may.
      await expectCoded(
        asActor(db, cast.owner.id, (as) =>
          as.query('select public.kiosk_verify_sso_domain($1)', [claimed.id]),
        ),
        'sso_forbidden',
      );
      const verified = await asActor(db, cast.staff.id, (as) =>
        one(as, 'select status, verified_by from public.kiosk_verify_sso_domain($1)', [claimed.id]),
      );
      expect(verified).toEqual({ status: 'verified', verified_by: 'staff' });
      const trail = await all(
        db,
        `select action from public.audit_events where organization_id = $1
          and subject_table like 'organization_sso%' order by id`,
        [cast.organization.id],
      );
      expect(trail.map((row) => row.action)).toEqual([
        'organization_sso.created',
        'organization_sso_domain.created',
        'organization_sso.updated',
        'organization_sso_domain.updated',
      ]);
    }));

  it('the password hook refuses users of a verified domain while SSO is required, only then', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await withSso(db, cast);
      const domain = `hook-${crypto.randomUUID().slice(0, 6)}.example.test`;
      const user = await createUser(db, { email: `pat@${domain}` });
      const outsider = await createUser(db, { email: `pat@other-${domain}` });
      const hook = async (userId: string) =>
        (
          await one<{ output: Record<string, unknown> }>(
            db,
            `select public.hook_password_verification_attempt(
               jsonb_build_object('user_id', $1::text, 'valid', true)) as output`,
            [userId],
          )
        ).output;
      const row = await claim(db, cast.owner.id, cast.organization.id, domain);
      await db.query(`update public.organization_sso set require_sso = true`);
      expect(await hook(user.id)).toEqual({ decision: 'continue' });
      await db.query(
        `update public.organization_sso_domains set status = 'verified', verified_by = 'dns',
           verified_at = now() where id = $1`,
        [row.id],
      );
      expect(await hook(user.id)).toEqual({
        decision: 'reject',
        message: 'Your organization requires single sign-on. Use "Sign in with SSO".',
      });
      expect(await hook(outsider.id)).toEqual({ decision: 'continue' });
      await db.query(`update public.organization_sso set require_sso = false`);
      expect(await hook(user.id)).toEqual({ decision: 'continue' });
      await expectRefused(
        asActor(db, cast.owner.id, (as) =>
          as.query(`select public.hook_password_verification_attempt('{}')`),
        ),
      );
    }));

  it('a first SSO sign-in joins the organization with the default role and is audited', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const providerId = await withSso(db, cast);
      const user = await createUser(db, {
        email: `sam@sso-${crypto.randomUUID().slice(0, 6)}.test`,
      });
      await db.query(
        `insert into auth.identities (id, provider_id, user_id, identity_data, provider,
           last_sign_in_at, created_at, updated_at)
         values (gen_random_uuid(), 'subject-1', $1, jsonb_build_object('email', $2::text), $3,
           now(), now(), now())`,
        [user.id, user.email, `sso:${providerId}`],
      );
      const member = await one(
        db,
        'select role_id from public.organization_users where organization_id = $1 and user_id = $2',
        [cast.organization.id, user.id],
      );
      expect(member).toEqual({ role_id: cast.limitedRole.id });
      await db.query(
        `update auth.identities set last_sign_in_at = now() + interval '1 minute'
          where user_id = $1`,
        [user.id],
      );
      const signIns = await all(
        db,
        `select actor_id, target, new_values ->> 'first' as first from public.audit_events
          where organization_id = $1 and action = 'sso.signed_in' order by id`,
        [cast.organization.id],
      );
      expect(signIns).toEqual([
        { actor_id: user.id, target: user.email, first: 'true' },
        { actor_id: user.id, target: user.email, first: 'false' },
      ]);
    }));
});
