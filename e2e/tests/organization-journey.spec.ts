import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { openCreatePanel, shorten, uniqueDestination } from '../support/create-form.ts';
import { Factories } from '../support/factories.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { subscribeAccountToEnterprise } from '../support/plans.ts';
import {
  logIn,
  seriousAccessibilityViolations,
  serviceClient,
  signedInClient,
} from '../support/shell.ts';

/**
 * Issue 16's journey: an owner creates an organization and walks its onboarding (domains
 * skipped, a user invited by e-mail who signs up from the mail, a team, its member), defines a
 * role, the member makes a link in the team and the owner finds it in the audit trail; then
 * archive and restore, and team mode there and back.
 */

/** People made through the sign-up form are not the factory's: removed here after the test. */
const registeredUserIds: string[] = [];
test.afterEach(async () => {
  const admin = serviceClient();
  for (const id of registeredUserIds.splice(0)) {
    const { error } = await admin.auth.admin.deleteUser(id);
    if (error && error.status !== 404) throw new Error(`Could not delete ${id}: ${error.message}`);
  }
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
// First visits compile the pages' chunks in the dev server: slow on a loaded machine.
const firstVisit = { timeout: 60_000 };

test('an owner sets up an organization with a member who signs up from the invitation mail', async ({
  page,
  browser,
  factories,
  mailbox,
}) => {
  test.setTimeout(300_000);
  const owner = await factories.createConfirmedUser({ userMetadata: { name: 'Olga Owner' } });
  const admin = serviceClient();
  // Support teams on the owner's plan, and the organizations preview staff turn on in the kiosk.
  const profile = await admin
    .from('profiles')
    .update({ preview_features: ['organizations'] })
    .eq('id', owner.id)
    .select('personal_account_id')
    .single();
  if (profile.error) throw new Error(profile.error.message);
  const granted = await admin
    .from('accounts')
    .update({ features: ['create_tiny_url', 'support_teams'] })
    .eq('id', profile.data.personal_account_id);
  if (granted.error) throw new Error(granted.error.message);

  const suffix = randomUUID().slice(0, 6);
  const slug = `e2e-journey-${suffix}`;
  const orgName = `Journey ${suffix}`;
  const memberEmail = Factories.uniqueEmail('member');
  const memberPassword = `Pw-${randomUUID()}`;

  // 1. The owner creates the organization from onboarding.
  await page.goto('/app/login');
  await logIn(page, owner.email, owner.password);
  await expect(mainNav(page).getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/app/organizations/onboarding');
  const create = page.getByRole('region', { name: 'Create an organization' });
  await create.getByRole('textbox', { name: 'Name' }).fill(orgName);
  await create.getByRole('textbox', { name: /^Slug/ }).fill(slug);
  await create.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(`/app/organizations/onboarding?org=${slug}`, firstVisit);
  const organization = await admin
    .from('organizations')
    .select('id, account_id')
    .eq('slug', slug)
    .single();
  if (organization.error) throw new Error(organization.error.message);
  // The organization's plan, as its checkout would leave it: seats and link features.
  await subscribeAccountToEnterprise(organization.data.account_id);

  // Step 1, domains: skipped as the onboarding allows (branded-domain pages are another branch's).
  await page
    .getByRole('region', { name: 'Add domains' })
    .getByRole('button', { name: 'Skip this step' })
    .click();

  // 2. A role first: every organization user holds one.
  await page.goto(`/app/organizations/${slug}/settings/profile/roles`);
  const newRole = page.getByRole('region', { name: 'New role' });
  await newRole.getByRole('textbox', { name: 'Name' }).fill('Link makers', firstVisit);
  await newRole.getByRole('checkbox', { name: /^Audit/ }).check();
  await newRole.getByRole('button', { name: 'Create role' }).click();
  await expect(page.getByText('The role has been created.')).toBeVisible();

  // Step 2, invite users: the onboarding's button leads to the users page.
  await page.goto(`/app/organizations/onboarding?org=${slug}`);
  const inviteStep = page.getByRole('region', { name: 'Invite users' });
  await inviteStep.getByRole('link', { name: 'Invite users' }).click();
  await expect(page).toHaveURL(`/app/organizations/${slug}/settings/profile/users`);
  const inviteForm = page.getByRole('form', { name: 'Invite a user' });
  await inviteForm.getByLabel('E-mail address').fill(memberEmail, firstVisit);
  await inviteForm.getByLabel('Role').selectOption({ label: 'Link makers' });
  await inviteForm.getByRole('button', { name: 'Invite' }).click();
  await expect(
    page.getByText(`${memberEmail} was invited. The invitation mail is on its way.`),
  ).toBeVisible();
  await expect(page.getByText(`${memberEmail} · Link makers`)).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'organization users')).toEqual([]);

  // 3. The invited person follows the mail, signs up, confirms, and accepts.
  const invitationMail = await mailbox.waitFor(memberEmail, { subject: /invited you to/ });
  const invitationLink = invitationMail.links.find((link) => link.includes('/app/invitation/'));
  expect(invitationLink, invitationMail.links.join(', ')).toBeDefined();
  expect(new URL(invitationLink!).origin).toBe(appUrls.portal);
  const member = await browser.newPage();
  await member.goto(invitationLink!);
  await expect(member.getByText(`to join the organization ${orgName} as Link makers`)).toBeVisible(
    firstVisit,
  );
  // The page's own link (the navigation has a Sign Up link for guests too).
  await member.getByRole('main').getByRole('link', { name: 'Sign up', exact: true }).click();
  await expect(member.getByLabel('E-mail')).toHaveValue(memberEmail, firstVisit);
  await member.getByLabel('Name').fill('Mia Member');
  await member.getByLabel(/^Password/).fill(memberPassword);
  const signup = member.waitForResponse((response) => response.url().includes('/auth/v1/signup'));
  await member.getByRole('button', { name: 'Sign up' }).click();
  registeredUserIds.push(((await (await signup).json()) as { id: string }).id);
  const confirmation = await mailbox.waitFor(memberEmail, {
    subject: 'Confirm your email address',
  });
  const verifyLink = confirmation.links.find((link) => link.includes('/auth/v1/verify'));
  await member.goto(verifyLink!);
  await expect(
    member.getByRole('heading', { level: 1, name: 'E-mail address verified' }),
  ).toBeVisible(firstVisit);
  await member.getByRole('main').getByRole('link', { name: 'Continue' }).click();
  await expect(member).toHaveURL(new URL(invitationLink!).pathname);
  await member.getByRole('main').getByRole('button', { name: 'Accept' }).click();
  await expect(member.getByText('The invitation has been accepted.')).toBeVisible();
  // A member with a role lands on their own links in the organization.
  await expect(member).toHaveURL(`/app/organizations/${slug}/me`, firstVisit);
  // The link answered once.
  await member.goto(invitationLink!);
  await expect(member.getByText('This invitation has already been answered.')).toBeVisible();

  // 4. A team (created by the owner; the organization's teams page is another branch's), and
  // the member invited to it from the team's membership page, accepting from the mail's link.
  const teamName = `Launch ${suffix}`;
  const teamSlug = `launch-${suffix}`;
  const ownerClient = await signedInClient(owner);
  const team = await ownerClient.rpc('create_team', {
    p_name: teamName,
    p_slug: teamSlug,
    p_organization_id: organization.data.id,
  });
  if (team.error) throw new Error(team.error.message);
  await page.goto(`/app/organization/${slug}/team/${teamSlug}/membership`);
  const teamInvite = page.getByRole('form', { name: 'Invite a member' });
  await teamInvite.getByLabel('E-mail address').fill(memberEmail, firstVisit);
  await teamInvite.getByLabel('Role').selectOption('member');
  await teamInvite.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`${memberEmail} · Member`)).toBeVisible();
  const teamMail = await mailbox.waitFor(memberEmail, { subject: new RegExp(teamName) });
  const teamLink = teamMail.links.find((link) => link.includes('/app/invitation/'))!;
  await member.goto(teamLink);
  await member.getByRole('main').getByRole('button', { name: 'Accept' }).click(firstVisit);
  await expect(member.getByText('The invitation has been accepted.')).toBeVisible();

  // The onboarding has nothing left: domains and users done, a team with a member.
  await page.goto(`/app/organizations/onboarding?org=${slug}`);
  await expect(page.getByRole('region', { name: 'Done' })).toBeVisible(firstVisit);

  // 5. The member makes a link in the team; the owner finds it in the audit trail.
  // From a page without the homepage's own form, so the side panel's is the only one.
  await member.goto(`${appUrls.portal}/app/settings/profile`);
  const form = await openCreatePanel(member);
  await form.getByLabel('Long URL').fill(uniqueDestination('journey'));
  const teamChoice = form.getByRole('combobox', { name: 'Team' });
  await teamChoice.click();
  await member.getByRole('option', { name: teamName, exact: true }).click();
  await shorten(member);
  await expect(member.getByRole('region', { name: 'Your short link is ready' })).toBeVisible();
  await member.close();

  await page.goto(`/app/organizations/${slug}/audit`);
  const events = page.getByRole('table', { name: 'Audit events' });
  // The trail names actors by e-mail.
  const linkRow = events
    .getByRole('row')
    .filter({ hasText: memberEmail })
    .filter({ hasText: 'Link created' });
  await expect(linkRow.first()).toBeVisible(firstVisit);

  // 6. Archive and restore.
  await page.goto(`/app/organizations/${slug}/settings/profile`);
  const archive = page.getByRole('region', { name: 'Archive' });
  await archive.getByRole('button', { name: 'Archive organization' }).click(firstVisit);
  await archive.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page.getByText('The organization has been archived.')).toBeVisible();
  await page.getByRole('button', { name: 'Restore organization' }).click();
  const restore = page.getByRole('dialog', { name: `Restore ${orgName}?` });
  await expect(restore.getByText('1 team', { exact: true })).toBeVisible();
  await restore.getByRole('button', { name: 'Restore organization' }).click();
  await expect(page.getByText('The organization has been restored.')).toBeVisible();

  // 7. Team mode into the team and back.
  const nav = mainNav(page);
  await nav.getByRole('button', { name: 'Workspace: your account' }).click();
  await page.getByRole('menuitem', { name: teamName }).click();
  await page
    .getByRole('dialog', { name: 'Switch team' })
    .getByRole('button', { name: 'Switch' })
    .click();
  await expect(nav.getByRole('button', { name: `Workspace: team ${teamName}` })).toBeVisible();
  await nav.getByRole('button', { name: `Workspace: team ${teamName}` }).click();
  await page.getByRole('menuitem', { name: 'Your account' }).click();
  await page
    .getByRole('dialog', { name: 'Back to your account' })
    .getByRole('button', { name: 'Switch' })
    .click();
  await expect(nav.getByRole('button', { name: 'Workspace: your account' })).toBeVisible();
});
