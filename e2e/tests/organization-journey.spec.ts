import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { openCreatePanel, shorten, uniqueDestination } from '../support/create-form.ts';
import { verifyShownRecords } from '../support/dns.ts';
import { Factories } from '../support/factories.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { subscribeAccountToEnterprise } from '../support/plans.ts';
import { logIn, seriousAccessibilityViolations, serviceClient } from '../support/shell.ts';

/**
 * Issue 16's journey: an owner creates an organization and walks its onboarding (a domain added
 * and verified, a user invited by e-mail who signs up from the mail, a team made on the teams
 * page, the member added to it), defines a role, the member makes a link in the team and the
 * owner finds it in the audit trail; then archive and restore, and team mode there and back.
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
  freshPage,
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

  // Step 1, domains: its button leads to the organization's domains page; the owner adds one,
  // sets the records it shows in the DNS sandbox and verifies it.
  const domain = `journey-${suffix}.example`;
  const domainsStep = page.getByRole('region', { name: 'Add domains' });
  await domainsStep.getByRole('link', { name: 'Add domains' }).click();
  await expect(page).toHaveURL(`/app/organizations/${slug}/settings/profile/domains`);
  await expect(page.getByRole('heading', { level: 1, name: 'Organization domains' })).toBeVisible(
    firstVisit,
  );
  await expect(page.getByText('No domains yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Add Domain' }).click();
  await page.getByRole('textbox', { name: /Domain name/ }).fill(domain, firstVisit);
  await page.getByRole('checkbox', { name: /only for .* short links/ }).check();
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page).toHaveURL(/\/app\/settings\/verify\?.*domain=/, firstVisit);
  await verifyShownRecords(page, domain);
  // The onboarding counts the step done from the domain itself: the next step is the users'.
  await page.goto(`/app/organizations/onboarding?org=${slug}`);
  await expect(page.getByRole('region', { name: 'Invite users' })).toBeVisible(firstVisit);
  await expect(page.getByRole('region', { name: 'Add domains' })).toHaveCount(0);
  await expect(
    page
      .getByRole('list', { name: 'Steps' })
      .getByRole('listitem')
      .filter({ hasText: 'Add domains' }),
  ).toContainText('Already there');

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
  const member = await freshPage();
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

  // 4. The owner creates a team on the organization's teams page and adds the member to it.
  const teamName = `Launch ${suffix}`;
  const teamSlug = `launch-${suffix}`;
  await page.goto(`/app/organizations/${slug}/settings/teams`);
  const createTeam = page.getByRole('form', { name: 'Create a team' });
  await createTeam.getByLabel('Team name').fill(teamName, firstVisit);
  await createTeam.getByLabel('Slug').fill(teamSlug);
  await createTeam.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText(`The team ${teamName} was created.`)).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Team settings' })
    .getByRole('link', { name: 'Members' })
    .click();
  const addMember = page.getByRole('form', { name: `Add a person to ${teamName}` });
  await addMember
    .getByLabel('Person')
    .selectOption({ label: `Mia Member (${memberEmail})` }, firstVisit);
  await addMember.getByLabel('Role').selectOption('member');
  await addMember.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByText(`Mia Member joined ${teamName} as member.`)).toBeVisible();
  await expect(
    page.getByRole('table', { name: `Members of ${teamName}` }).getByLabel('Role of Mia Member'),
  ).toHaveValue('member');

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
