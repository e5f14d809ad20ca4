import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../test/backend.ts';
import { renderApp } from '../test/render.tsx';
import { pastDueRow, signedInWorld, type TestWorld } from '../test/world.ts';

const survey = { id: 's1', title: 'Tell us about you', survey_questions: [{ count: 3 }] };
const withSurvey = (extra: Partial<TestWorld> = {}) =>
  signedInWorld({ profile: { is_survey_enabled: true }, survey, ...extra });

describe('survey banner', () => {
  it('shows the running survey to a user who has it on', async () => {
    renderApp({ route: '/app/terms', world: withSurvey() });
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    expect(banner).toHaveTextContent('Tell us about you: 3 short questions');
  });

  it('"Not now" hides it in this browser', async () => {
    const { user } = renderApp({ route: '/app/terms', world: withSurvey() });
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    await user.click(within(banner).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.surveySkipped)).toBe('true');
  });

  it('"Don\'t ask again" turns it off in the profile', async () => {
    const backend = new TestBackend();
    const { user } = renderApp({ route: '/app/terms', world: withSurvey(), backend });
    backend.on('PATCH', '/rest/v1/profiles', () => json({ id: 'u' }));
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    await user.click(within(banner).getByRole('button', { name: "Don't ask again" }));
    await waitFor(() => expect(backend.requestsTo('PATCH', '/rest/v1/profiles')).toHaveLength(1));
    expect(await backend.requestsTo('PATCH', '/rest/v1/profiles')[0]!.json()).toEqual({
      is_survey_enabled: false,
    });
  });

  it('stays away from guests, past-due users and users who turned it off', async () => {
    for (const world of [
      {},
      withSurvey({ subscriptions: [pastDueRow()] }),
      signedInWorld({ profile: { is_survey_enabled: false }, survey }),
    ]) {
      const { unmount } = renderApp({ route: '/app/terms', world });
      await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
      expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
      unmount();
    }
  });
});
