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
  it('shows the running survey to a user who has it on, where links are made', async () => {
    renderApp({ route: '/app', world: withSurvey() });
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    expect(banner).toHaveTextContent('Tell us about you: 3 short questions');
  });

  it('stays off the pages where it is not relevant, and asks nothing there', async () => {
    const backend = new TestBackend();
    renderApp({ route: '/app/terms', world: withSurvey(), backend });
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    // The shell's state has loaded (the survey would be asked for by now).
    await screen.findByRole('button', { name: 'Log out' });
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
    expect(backend.requestsTo('GET', '/rest/v1/surveys')).toEqual([]);
  });

  it('"Not now" hides it for the rest of the browsing session', async () => {
    const first = renderApp({ route: '/app', world: withSurvey() });
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    await first.user.click(within(banner).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem(STORAGE_KEYS.surveySkipped)).toBe('true');
    expect(window.localStorage.getItem(STORAGE_KEYS.surveySkipped)).toBeNull();
    first.unmount();

    // A reload in the same session: still skipped.
    const backend = new TestBackend();
    renderApp({ route: '/app', world: withSurvey(), backend });
    await screen.findByRole('button', { name: 'Log out' });
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
    expect(backend.requestsTo('GET', '/rest/v1/surveys')).toEqual([]);
  });

  it('"Don\'t ask again" turns it off in the profile', async () => {
    const backend = new TestBackend();
    const { user } = renderApp({ route: '/app', world: withSurvey(), backend });
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
      const { unmount } = renderApp({ route: '/app', world });
      await screen.findByRole('heading', { level: 1 });
      expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
      unmount();
    }
  });

  it('keeps its room from the first paint while the survey loads, so the page does not drop', async () => {
    const backend = new TestBackend();
    renderApp({ route: '/app', world: withSurvey(), backend });
    let answer: (response: Response) => void = () => undefined;
    // Scripted after the world, so it wins: the survey arrives when the test says.
    backend.on(
      'GET',
      '/rest/v1/surveys',
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    await waitFor(() => expect(backend.requestsTo('GET', '/rest/v1/surveys')).toHaveLength(1));
    const placeholder = document.querySelector('[data-survey-placeholder]');
    expect(placeholder).not.toBeNull();
    // Room only: nothing to see, read or reach.
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    expect(placeholder).toHaveStyle({ visibility: 'hidden' });
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();

    answer(json([survey]));
    const banner = await screen.findByRole('complementary', { name: 'Survey' });
    expect(banner).toHaveTextContent('Tell us about you: 3 short questions');
    expect(document.querySelector('[data-survey-placeholder]')).toBeNull();
  });

  it('gives the room back when no survey is running', async () => {
    renderApp({ route: '/app', world: signedInWorld({ profile: { is_survey_enabled: true } }) });
    await screen.findByRole('button', { name: 'Log out' });
    await waitFor(() => expect(document.querySelector('[data-survey-placeholder]')).toBeNull());
    expect(screen.queryByRole('complementary', { name: 'Survey' })).not.toBeInTheDocument();
  });

  it('keeps no room for guests or on pages without the offer', async () => {
    for (const [route, world] of [
      ['/app', {}],
      ['/app/terms', withSurvey()],
    ] as const) {
      const { unmount } = renderApp({ route, world });
      expect(document.querySelector('[data-survey-placeholder]')).toBeNull();
      await screen.findByRole('heading', { level: 1 });
      expect(document.querySelector('[data-survey-placeholder]')).toBeNull();
      unmount();
    }
  });
});
