import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { logIn, seriousAccessibilityViolations, serviceClient } from '../support/shell.ts';

/**
 * The organization's team settings (issue 16): its owner creates a team in
 * organizations/{org}/settings/teams, puts an organization user on it with a role in
 * settings/teams/members, then renames and archives it.
 */
test('an owner creates a team, adds a member with a role, renames and archives it', async ({
  page,
  factories,
}) => {
  // Several first page loads on the dev server.
  test.setTimeout(120_000);
  const owner = await factories.createConfirmedUser({ userMetadata: { name: 'Olga Owner' } });
  const person = await factories.createConfirmedUser({ userMetadata: { name: 'Una User' } });
  const organization = await factories.createOrganization(owner, 'Northwind');
  const admin = serviceClient();
  const role = await admin
    .from('organization_roles')
    .insert({ organization_id: organization.id, name: 'Analyst', permissions: ['audit'] })
    .select('id')
    .single();
  if (role.error) throw new Error(role.error.message);
  const joined = await admin
    .from('organization_users')
    .insert({ organization_id: organization.id, user_id: person.id, role_id: role.data.id });
  if (joined.error) throw new Error(joined.error.message);
  const suffix = randomUUID().slice(0, 6);
  const firstVisit = { timeout: 60_000 };

  await page.goto('/app/login');
  await logIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  await page.goto(`/app/organizations/${organization.slug}/settings/teams`);
  await expect(page.getByText('No teams yet.')).toBeVisible(firstVisit);
  const create = page.getByRole('form', { name: 'Create a team' });
  await create.getByLabel('Team name').fill('Growth');
  await create.getByLabel('Slug').fill(`growth-${suffix}`);
  await create.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('The team Growth was created.')).toBeVisible();
  const teams = page.getByRole('table', { name: 'Organization teams' });
  // The creator is the team's first member.
  await expect(teams.getByRole('row', { name: /Growth/ })).toContainText('1 member');
  expect(await seriousAccessibilityViolations(page, 'organization settings/teams')).toEqual([]);

  await page
    .getByRole('navigation', { name: 'Team settings' })
    .getByRole('link', { name: 'Members' })
    .click();
  const add = page.getByRole('form', { name: 'Add a person to Growth' });
  await add.getByLabel('Person').selectOption({ label: `Una User (${person.email})` });
  await add.getByLabel('Role').selectOption('viewer');
  await add.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByText('Una User joined Growth as viewer.')).toBeVisible();
  const members = page.getByRole('table', { name: 'Members of Growth' });
  await expect(members.getByLabel('Role of Una User')).toHaveValue('viewer');
  expect(await seriousAccessibilityViolations(page, 'organization settings/teams/members')).toEqual(
    [],
  );

  await page
    .getByRole('navigation', { name: 'Team settings' })
    .getByRole('link', { name: 'Teams' })
    .click();
  await teams.getByRole('button', { name: 'Rename Growth' }).click();
  const rename = page.getByRole('form', { name: 'Rename Growth' });
  await rename.getByLabel('Team name').fill('Brand');
  await rename.getByLabel('Slug').fill(`brand-${suffix}`);
  await rename.getByRole('button', { name: 'Save team' }).click();
  await expect(page.getByText('The team Brand was saved.')).toBeVisible();
  const brand = teams.getByRole('row', { name: /Brand/ });
  await expect(brand).toContainText('2 members');

  await teams.getByRole('button', { name: 'Archive Brand' }).click();
  await page
    .getByRole('dialog', { name: 'Archive team' })
    .getByRole('button', { name: 'Archive' })
    .click();
  await expect(page.getByText('The team Brand was archived.')).toBeVisible();
  await expect(brand).toContainText('Archived');
  await expect(teams.getByRole('button', { name: 'Unarchive Brand' })).toBeVisible();

  // The database wrote the trail of each change.
  const trail = await admin
    .from('audit_events')
    .select('action')
    .eq('organization_id', organization.id)
    .in('action', ['team.created', 'team_member.created', 'team.updated', 'team.archived'])
    .order('id');
  if (trail.error) throw new Error(trail.error.message);
  expect(new Set(trail.data.map((event) => event.action))).toEqual(
    new Set(['team.created', 'team_member.created', 'team.updated', 'team.archived']),
  );
});
