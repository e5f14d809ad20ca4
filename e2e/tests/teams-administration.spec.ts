import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { subscribeToBusiness } from '../support/plans.ts';
import { DEMO_PASSWORD, logIn, seriousAccessibilityViolations } from '../support/shell.ts';

/**
 * Issue 16, first increment: a Business user creates a team, works in it through team mode and
 * back, invites an existing user who accepts in the invitations popover, changes their role and
 * removes them.
 */
test.describe('teams: team mode and membership', () => {
  test('create a team, switch team mode and back, invite, change a role, remove', async ({
    page,
    freshPage,
    factories,
  }) => {
    // One journey across two users and several first page loads.
    test.setTimeout(180_000);
    const owner = await factories.createConfirmedUser({ userMetadata: { name: 'Olga Owner' } });
    await subscribeToBusiness(owner);
    const invitee = await factories.createConfirmedUser({ userMetadata: { name: 'Ian Invitee' } });
    const suffix = randomUUID().slice(0, 6);
    const teamName = `Growth ${suffix}`;
    const teamSlug = `growth-${suffix}`;

    await page.goto('/app/login');
    await logIn(page, owner.email, owner.password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();

    // settings/teams: no team yet, then one.
    await page.goto('/app/settings/teams');
    // First visits compile the pages' chunks in the dev server: slow on a loaded machine.
    const firstVisit = { timeout: 60_000 };
    await expect(page.getByText('You are not on any team yet.', { exact: false })).toBeVisible(
      firstVisit,
    );
    expect(await seriousAccessibilityViolations(page, 'settings/teams')).toEqual([]);
    const create = page.getByRole('form', { name: 'Create a team' });
    await create.getByLabel('Team name').fill(teamName);
    await create.getByLabel('Slug').fill(teamSlug);
    await create.getByRole('button', { name: 'Create team' }).click();
    const teamProfile = `/app/organization/_/team/${teamSlug}/profile`;
    await expect(page).toHaveURL(teamProfile);
    await expect(page.getByRole('heading', { level: 1, name: 'Team profile' })).toBeVisible(
      firstVisit,
    );

    // Team mode: into the team (its settings), and back to the account (user settings).
    await nav.getByRole('button', { name: 'Workspace: your account' }).click();
    await page.getByRole('menuitem', { name: teamName }).click();
    const modal = page.getByRole('dialog', { name: 'Switch team' });
    await expect(modal).toContainText(`You are going to switch to team ${teamName}.`);
    // Cancelled: nothing changes.
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(nav.getByRole('button', { name: 'Workspace: your account' })).toBeVisible();
    await nav.getByRole('button', { name: 'Workspace: your account' }).click();
    await page.getByRole('menuitem', { name: teamName }).click();
    await page
      .getByRole('dialog', { name: 'Switch team' })
      .getByRole('button', { name: 'Switch' })
      .click();
    await expect(page).toHaveURL(teamProfile);
    await expect(nav.getByRole('button', { name: `Workspace: team ${teamName}` })).toBeVisible();

    await nav.getByRole('button', { name: `Workspace: team ${teamName}` }).click();
    await page.getByRole('menuitem', { name: 'Your account' }).click();
    const back = page.getByRole('dialog', { name: 'Back to your account' });
    await expect(back).toContainText('You are going to switch to your account.');
    await back.getByRole('button', { name: 'Switch' }).click();
    await expect(page).toHaveURL('/app/settings/profile');
    await expect(nav.getByRole('button', { name: 'Workspace: your account' })).toBeVisible();

    // Invite an existing user as a member.
    await page.goto(`/app/organization/_/team/${teamSlug}/membership`);
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await expect(invite).toBeVisible(firstVisit);
    await invite.getByLabel('E-mail address').fill(invitee.email);
    await invite.getByLabel('Role').selectOption('member');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByText(`${invitee.email} · Member`)).toBeVisible();
    // Inviting the same address again: the spec's message.
    await invite.getByLabel('E-mail address').fill(invitee.email);
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect(invite.getByText('That user is already on the team or invited')).toBeVisible();

    // The invitee accepts in the invitations popover.
    const inviteePage = await freshPage();
    await inviteePage.goto(`${appUrls.portal}/app/login`);
    await logIn(inviteePage, invitee.email, invitee.password);
    const inviteeNav = inviteePage.getByRole('navigation', { name: 'Main' });
    await inviteeNav.getByRole('button', { name: 'Invitations, 1 pending' }).click();
    const popover = inviteePage.getByRole('dialog', { name: 'Invitations' });
    await popover
      .getByRole('listitem')
      .filter({ hasText: teamName })
      .getByRole('button', { name: 'Accept' })
      .click();
    await expect(inviteePage.getByText('The invitation has been accepted.')).toBeVisible();
    await inviteePage.close();

    // The owner sees the new member, makes them a viewer, then removes them.
    await page.reload();
    const members = page.getByRole('table', { name: 'Team members' });
    const row = members.getByRole('row').filter({ hasText: invitee.email });
    await expect(row).toBeVisible();
    expect(await seriousAccessibilityViolations(page, 'team membership')).toEqual([]);
    await row.getByLabel(`Role of Ian Invitee`).selectOption('viewer');
    await expect(page.getByText('Ian Invitee is now viewer.')).toBeVisible();
    await row.getByRole('button', { name: 'Remove Ian Invitee' }).click();
    await page
      .getByRole('dialog', { name: 'Remove member' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(page.getByText('Ian Invitee was removed from the team.')).toBeVisible();
    await expect(members.getByRole('row').filter({ hasText: invitee.email })).toHaveCount(0);
  });
});

test.describe('who reaches organizations', () => {
  for (const email of ['owner@shortlane.test', 'viewer@shortlane.test']) {
    test(`${email} (not staff) reaches Acme; the kiosk stays staff-only`, async ({ page }) => {
      await page.goto('/app/login');
      await logIn(page, email, DEMO_PASSWORD);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
      await page.goto('/app/organizations/acme/dashboard');
      await expect(page).toHaveURL('/app/organizations/acme/dashboard');
      await expect(nav.getByRole('button', { name: 'Organizations' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Kiosk' })).toHaveCount(0);
      await page.goto('/app/kiosk/users');
      await expect(page).toHaveURL('/app');
    });
  }
});
