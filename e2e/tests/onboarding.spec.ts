import { expect, test } from '../support/fixtures.ts';
import { shorten, uniqueDestination } from '../support/create-form.ts';
import { logIn, serviceClient } from '../support/shell.ts';

/**
 * Onboarding (issue 13, item 4): a new user answers the survey, which then stays away, and the
 * get-started checklist ticks itself as the user makes a first link.
 */
test(
  'a new user answers the survey, it does not come back, and get-started ticks the first link',
  { tag: '@survey' },
  async ({ page, factories, saveScreenshot }) => {
    test.setTimeout(120_000);
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');

    // The survey opens by itself (the seed's onboarding survey).
    const dialog = page.getByRole('dialog', { name: 'Tell us about you' });
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('radio', { name: 'Marketing' }).check();
    await dialog.getByRole('checkbox', { name: 'Analytics' }).check();
    await dialog.getByLabel('Anything else?').fill('Campaign links');
    await saveScreenshot('onboarding-survey');
    await dialog.getByRole('button', { name: 'Send answers' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('complementary', { name: 'Survey' })).toHaveCount(0);

    const { data: answers, error } = await serviceClient()
      .from('survey_answers')
      .select('answer')
      .eq('user_id', user.id);
    expect(error).toBeNull();
    expect(answers?.map((row) => row.answer)).toEqual(
      expect.arrayContaining([['Marketing'], ['Analytics'], 'Campaign links']),
    );

    // A reload (and so a new read of the profile) does not bring it back: it is not even fetched.
    const surveyReads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/rest/v1/surveys'))
        surveyReads.push(request.url());
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeAttached();
    await page.waitForLoadState('networkidle');
    expect(surveyReads).toEqual([]);
    await expect(dialog).toHaveCount(0);

    // get-started: nothing done yet.
    await page.goto('/app/get-started');
    await expect(page.getByText('0 of 5 done')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('progressbar', { name: '0 of 5 done' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    const firstStep = page.getByRole('listitem').filter({ hasText: 'Make your first short link' });
    await expect(firstStep).toHaveAttribute('data-done', 'false');

    // The step's own link leads to the form; a first link is made there.
    await firstStep.getByRole('link', { name: 'Make a link' }).click();
    await expect(page).toHaveURL('/app');
    await page.getByLabel('Long URL').fill(uniqueDestination('onboarding'));
    await shorten(page);
    await expect(page.getByRole('region', { name: 'Your short link is ready' })).toBeVisible();

    await page.goto('/app/get-started');
    await expect(page.getByText('1 of 5 done')).toBeVisible({ timeout: 30_000 });
    await expect(firstStep).toHaveAttribute('data-done', 'true');
    await expect(firstStep).toContainText('(done)');
    await saveScreenshot('onboarding-get-started');
  },
);
