import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../test/backend.ts';
import { renderApp } from '../test/render.tsx';
import { signedInWorld } from '../test/world.ts';

const survey = { id: 's1', title: 'Tell us about you', survey_questions: [{ count: 3 }] };
const questions = [
  {
    id: 'q1',
    prompt: 'What do you use short links for?',
    kind: 'single',
    choices: ['Work', 'Personal'],
    required: true,
  },
  {
    id: 'q2',
    prompt: 'Where do you share them?',
    kind: 'multiple',
    choices: ['Social', 'Email', 'Print'],
    required: false,
  },
  { id: 'q3', prompt: 'Anything else?', kind: 'text', choices: [], required: false },
];

function surveyBackend() {
  return new TestBackend().table('survey_questions', questions);
}

const world = () => signedInWorld({ profile: { is_survey_enabled: true }, survey });

describe('onboarding survey modal', { timeout: 20_000 }, () => {
  it('opens by itself, checks the required answer and sends the whole survey', async () => {
    const backend = surveyBackend().on('POST', '/rest/v1/rpc/submit_onboarding_survey', () =>
      json(2),
    );
    const { user } = renderApp({ route: '/app', world: world(), backend });
    const dialog = await screen.findByRole('dialog', { name: 'Tell us about you' });
    await within(dialog).findByText('What do you use short links for?');
    await user.click(within(dialog).getByRole('button', { name: 'Send answers' }));
    expect(await within(dialog).findByText('This question needs an answer.')).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/submit_onboarding_survey')).toEqual([]);

    await user.click(within(dialog).getByRole('radio', { name: 'Work' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Email' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Print' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send answers' }));
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/rest/v1/rpc/submit_onboarding_survey')).toHaveLength(1),
    );
    // The empty text answer is left out.
    expect(
      await backend.requestsTo('POST', '/rest/v1/rpc/submit_onboarding_survey')[0]!.json(),
    ).toEqual({ p_survey_id: 's1', p_answers: { q1: ['Work'], q2: ['Email', 'Print'] } });
    expect(await screen.findByText('Thank you for your answers.')).toBeInTheDocument();
  });

  it("shows the database's sentence when an answer is refused", async () => {
    const backend = surveyBackend().on('POST', '/rest/v1/rpc/submit_onboarding_survey', () =>
      postgrestError(422, {
        message: 'survey_answer_invalid',
        details: 'Choose one of the offered answers.',
        hint: 'q1',
      }),
    );
    const { user } = renderApp({ route: '/app', world: world(), backend });
    const dialog = await screen.findByRole('dialog', { name: 'Tell us about you' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Personal' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send answers' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Choose one of the offered answers.',
    );
  });

  it('"Not now" closes it and keeps the skip flag, so a reload does not fetch it again', async () => {
    const backend = surveyBackend();
    const first = renderApp({ route: '/app', world: world(), backend });
    const dialog = await screen.findByRole('dialog', { name: 'Tell us about you' });
    await first.user.click(await within(dialog).findByRole('button', { name: 'Not now' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Tell us about you' })).not.toBeInTheDocument(),
    );
    expect(window.sessionStorage.getItem(STORAGE_KEYS.surveySkipped)).toBe('true');
    first.unmount();

    const again = new TestBackend();
    renderApp({ route: '/app', world: world(), backend: again });
    await screen.findByRole('button', { name: 'Log out' });
    expect(again.requestsTo('GET', '/rest/v1/surveys')).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('onboarding survey modal, closed', { timeout: 20_000 }, () => {
  it('Escape closes it for now: the banner still offers it, and "Take the survey" reopens it', async () => {
    const { user } = renderApp({ route: '/app', world: world(), backend: surveyBackend() });
    const dialog = await screen.findByRole('dialog', { name: 'Tell us about you' });
    await within(dialog).findByText('What do you use short links for?');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.sessionStorage.getItem(STORAGE_KEYS.surveySkipped)).not.toBe('true');
    const banner = screen.getByRole('complementary', { name: 'Survey' });
    await user.click(within(banner).getByRole('button', { name: 'Take the survey' }));
    expect(await screen.findByRole('dialog', { name: 'Tell us about you' })).toBeInTheDocument();
  });
});
