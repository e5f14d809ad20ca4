import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createCast,
  createUser,
  expectRefused,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * public.webhook_accounts by actor: the accounts the portal's picker offers are exactly those
 * where the actor may add an endpoint under RLS (settings permission, plan with `webhooks`).
 */
const pool = useDatabase();

type Actor = 'personalOwner' | 'teamAdmin' | 'member' | 'orgOwner' | 'stranger';
type Scope = 'personal' | 'team' | 'organization';

const EXPECTED: Record<Actor, Scope[]> = {
  // Only their personal workspace is on a plan with webhooks.
  personalOwner: ['personal'],
  // The settings permission on the team, which inherits the organization's features.
  teamAdmin: ['team'],
  // On the team, without the settings permission.
  member: [],
  // Owns the organization and its team; their personal workspace has no webhooks.
  orgOwner: ['team', 'organization'],
  stranger: [],
};

describe('webhook_accounts by actor', () => {
  for (const [actor, expected] of Object.entries(EXPECTED) as [Actor, Scope[]][]) {
    it(`${actor}: ${expected.length ? expected.join(', ') : 'none'}, as RLS allows`, () =>
      withRollback(pool, async (db) => {
        const cast = await createCast(db);
        const personalOwner = await createUser(db, { name: 'Personal owner' });
        await db.query(
          `update public.accounts set features = array['webhooks'] where id = any($1::uuid[])`,
          [[cast.organization.accountId, personalOwner.personalAccountId]],
        );
        const user = {
          personalOwner,
          teamAdmin: cast.teamAdmin,
          member: cast.member,
          orgOwner: cast.owner,
          stranger: cast.stranger,
        }[actor];
        const scopes: Record<Scope, string> = {
          personal: user.personalAccountId,
          team: cast.team.accountId,
          organization: cast.organization.accountId,
        };

        const listed = await asActor(db, user.id, (as) =>
          all<{ account_id: string; kind: string; name: string }>(
            as,
            'select account_id, kind, name from public.webhook_accounts()',
          ),
        );
        expect(listed.map((row) => row.kind)).toEqual(expected);
        expect(listed.map((row) => row.account_id)).toEqual(expected.map((scope) => scopes[scope]));
        for (const row of listed) expect(row.name).not.toBe('');

        for (const [scope, accountId] of Object.entries(scopes) as [Scope, string][]) {
          const insert = asActor(db, user.id, (as) =>
            as.query(
              `insert into public.webhook_endpoints (account_id, url, events)
               values ($1, 'https://hooks.example.com/in', array['link.created'])`,
              [accountId],
            ),
          );
          if (expected.includes(scope)) await insert;
          else await expectRefused(insert);
        }
      }));
  }

  it('is not callable anonymously', () =>
    withRollback(pool, async (db) => {
      await expectRefused(
        asActor(db, null, (as) => as.query('select * from public.webhook_accounts()')),
      );
    }));
});
