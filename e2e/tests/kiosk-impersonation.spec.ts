import { appUrls, ARTIFACTS_DIR, expect, test } from '../support/fixtures.ts';
import { serviceClient, signedInClient } from '../support/shell.ts';
import { makeStaff, openKioskAsStaff, signInToPortal } from './kiosk-support.ts';

test.describe('kiosk impersonation', () => {
  test('staff find a user, act as them in the portal, and come back to their own account', async ({
    page,
    context,
    factories,
  }) => {
    const target = await factories.createConfirmedUser({ userMetadata: { name: 'Imogen Target' } });
    const staff = await makeStaff(
      await factories.createConfirmedUser({ userMetadata: { name: 'Stella Staff' } }),
    );
    // The user is signed in somewhere else too: impersonating must not end that session.
    const targetElsewhere = await signedInClient(target);

    // The staff member's own portal session, which impersonation keeps aside.
    await signInToPortal(page, staff);
    await expect(page.getByRole('link', { name: 'Stella Staff' })).toBeVisible();

    const kiosk = await context.newPage();
    await openKioskAsStaff(kiosk, staff);
    await kiosk.getByPlaceholder('E-mail or name').fill(target.email);
    // The search applies after a pause; clicking before it would be undone by it.
    await expect(kiosk).toHaveURL(/filter=/);
    await expect(kiosk.getByRole('row')).toHaveCount(2);
    await kiosk.getByRole('cell', { name: target.email }).click();
    await expect(kiosk).toHaveURL(new RegExp(`/users/${target.id}/show$`));
    await kiosk.screenshot({ path: `${ARTIFACTS_DIR}/kiosk-user-show.png`, fullPage: true });

    const [portal] = await Promise.all([
      context.waitForEvent('page'),
      kiosk.getByRole('button', { name: 'Impersonate' }).click(),
    ]);
    await expect(portal).toHaveURL(`${appUrls.portal}/app`);
    await expect(portal.getByRole('link', { name: 'Imogen Target' })).toBeVisible();
    const backToMyAccount = portal.getByRole('link', { name: 'Back To My Account' });
    await expect(backToMyAccount).toBeVisible();
    // The token never stays in the address bar.
    expect(portal.url()).not.toContain('impersonation_token');
    await portal.screenshot({
      path: `${import.meta.dirname}/../artifacts/portal-impersonating.png`,
    });

    await backToMyAccount.click();
    await expect(portal).toHaveURL(`${appUrls.portal}/app`);
    await expect(portal.getByRole('link', { name: 'Stella Staff' })).toBeVisible();
    await expect(portal.getByRole('link', { name: 'Back To My Account' })).toHaveCount(0);

    // Both ends are in the kiosk audit log, by the staff member, about the user.
    const { data: audit, error } = await serviceClient()
      .from('kiosk_audit_log')
      .select('action, actor_id')
      .eq('subject_user_id', target.id)
      .order('id');
    expect(error).toBeNull();
    expect(audit).toEqual([
      { action: 'impersonation.started', actor_id: staff.id },
      { action: 'impersonation.stopped', actor_id: staff.id },
    ]);

    // The user's own session elsewhere is untouched.
    const stillSignedIn = await targetElsewhere.auth.refreshSession();
    expect(stillSignedIn.error).toBeNull();
  });
});
