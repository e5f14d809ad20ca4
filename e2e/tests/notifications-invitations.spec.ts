import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';

/** Seeded (supabase/seeds/10_accounts.sql): Acme's teams and their admins. */
const MARKETING = {
  id: '00000000-0000-4000-8000-000000000501',
  adminId: '00000000-0000-4000-8000-000000000108',
};
const SALES = {
  id: '00000000-0000-4000-8000-000000000502',
  adminId: '00000000-0000-4000-8000-000000000109',
};

test.describe('invitations popover', () => {
  test('a user accepts one team invitation and rejects another', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    const admin = serviceClient();
    const { data: inviters, error: readError } = await admin
      .from('profiles')
      .select('id, name')
      .in('id', [MARKETING.adminId, SALES.adminId]);
    if (readError) throw new Error(`Could not read the inviters: ${readError.message}`);
    const nameOf = (id: string) => inviters.find((inviter) => inviter.id === id)?.name ?? '';
    const { error } = await admin.from('invitations').insert([
      {
        team_id: MARKETING.id,
        email: user.email,
        team_role: 'member',
        message: 'Welcome aboard!',
        inviter_id: MARKETING.adminId,
      },
      { team_id: SALES.id, email: user.email, team_role: 'viewer', inviter_id: SALES.adminId },
    ]);
    if (error) throw new Error(`Could not invite ${user.email}: ${error.message}`);

    try {
      await page.goto('/app/login');
      await logIn(page, user.email, user.password);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Invitations, 2 pending' }).click();
      const popover = page.getByRole('dialog', { name: 'Invitations' });
      const marketing = popover.getByRole('listitem').filter({ hasText: 'Marketing' });
      await expect(marketing).toContainText(
        `${nameOf(MARKETING.adminId)} invited you to join the team Marketing of Acme as Member`,
      );
      await expect(marketing).toContainText('“Welcome aboard!”');

      await marketing.getByRole('button', { name: 'Accept' }).click();
      await expect(page.getByText('The invitation has been accepted.')).toBeVisible();
      await expect(popover.getByRole('listitem')).toHaveCount(1);
      await expect(nav.getByRole('button', { name: 'Invitations, 1 pending' })).toBeVisible();

      const sales = popover.getByRole('listitem').filter({ hasText: 'Sales' });
      await expect(sales).toContainText('as Viewer');
      await sales.getByRole('button', { name: 'Reject' }).click();
      await expect(page.getByText('The invitation has been rejected.')).toBeVisible();
      await expect(popover.getByText('No Invitations')).toBeVisible();
      await expect(nav.getByRole('button', { name: 'Invitations', exact: true })).toBeVisible();

      const { data: memberships } = await admin
        .from('team_members')
        .select('team_id, role')
        .eq('user_id', user.id);
      expect(memberships).toEqual([{ team_id: MARKETING.id, role: 'member' }]);
    } finally {
      await admin.from('invitations').delete().eq('email', user.email);
    }
  });
});
