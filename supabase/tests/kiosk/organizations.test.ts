import { beforeAll, describe, expect, it } from 'vitest';
import { rest, SEEDED, tokenFor } from './api.ts';

/**
 * The kiosk's organizations and teams screens read these views through PostgREST: the seeded
 * Acme organization with its owner, plan, people and teams. (That only staff read them is
 * checked with every kiosk view in rls.test.ts.)
 */
const ACME = '00000000-0000-4000-8000-000000000201';

let staff: string;
beforeAll(async () => {
  staff = await tokenFor(SEEDED.staff);
});

describe('kiosk organizations and teams', () => {
  it('show an organization with its owner, plan, archive state and size', async () => {
    const { status, body } = await rest(`kiosk_organizations?id=eq.${ACME}`, { token: staff });
    expect(status).toBe(200);
    expect(body).toEqual([
      expect.objectContaining({
        name: 'Acme',
        slug: 'acme',
        owner_id: SEEDED.owner,
        owner_email: 'owner@shortlane.test',
        plan: 'enterprise',
        archived_at: null,
        users_count: 1,
        teams_count: 2,
      }),
    ]);
  });

  it("list the organization's users with their role, and its teams with their members", async () => {
    const users = await rest(`kiosk_organization_users?organization_id=eq.${ACME}`, {
      token: staff,
    });
    expect(users.body).toEqual([
      expect.objectContaining({
        email: 'orguser@shortlane.test',
        role_name: 'Analyst',
        permissions: ['audit', 'domains'],
      }),
    ]);
    const teams = await rest(`kiosk_teams?organization_id=eq.${ACME}&order=name`, {
      token: staff,
    });
    const rows = teams.body as { id: string; organization_name: string; plan: string }[];
    expect(rows).toHaveLength(2);
    // A team of an organization is on the organization's plan.
    expect(rows.map((row) => [row.organization_name, row.plan])).toEqual([
      ['Acme', 'enterprise'],
      ['Acme', 'enterprise'],
    ]);
    const members = await rest(`kiosk_team_members?team_id=eq.${rows[0]!.id}`, { token: staff });
    expect((members.body as unknown[]).length).toBeGreaterThan(0);
    expect(members.body).toEqual(
      (members.body as { team_id: string; user_id: string }[]).map((member) =>
        expect.objectContaining({ id: `${member.team_id}:${member.user_id}` }),
      ),
    );
  });
});
