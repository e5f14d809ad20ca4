import { QUOTE_MESSAGES } from '@shortlane/shared/schemas/quote.ts';
import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import QuoteRequestPage, { NOT_SENT, TOO_MANY } from './QuoteRequestPage.tsx';

function open(answer: (body: Record<string, unknown>) => Response, signedIn = false) {
  const sent: Record<string, unknown>[] = [];
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/request_quote', async (request) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push(body);
    return answer(body);
  });
  const rendered = render(<QuoteRequestPage />, {
    route: '/app/pricing/quote',
    backend,
    world: signedIn ? signedInWorld() : {},
  });
  return { ...rendered, sent };
}

/** Pasting: key by key is slow in jsdom, and what is tested is the value. */
async function fill(user: UserEvent, label: RegExp, text: string) {
  await user.click(await screen.findByLabelText(label));
  await user.paste(text);
}

async function fillAll(user: UserEvent) {
  await fill(user, /^Name/, 'Grace Hopper');
  await fill(user, /^Work e-mail/, 'grace@navy.test');
  await fill(user, /^Links a month/, '50000');
  await fill(user, /^People who will use it/, '40');
}

// Rendering loads the page's modules first: slow on a busy machine.
const ROOMY = { timeout: 30_000 };

describe('QuoteRequestPage', () => {
  it('sends a guest’s request and says where the answer goes', ROOMY, async () => {
    const { user, sent } = open(() => json('7f0c1e2a-1111-4111-8111-111111111111'));
    await fillAll(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Thank you. We will write to grace@navy.test within one business day.',
    );
    expect(sent).toEqual([
      {
        p_name: 'Grace Hopper',
        p_email: 'grace@navy.test',
        p_company: '',
        p_links_per_month: 50000,
        p_team_size: 40,
        p_message: '',
      },
    ]);
  });

  it('says what each empty required field needs, and sends nothing', ROOMY, async () => {
    const { user, sent } = open(() => json('x'));
    await user.click(await screen.findByRole('button', { name: 'Send request' }));
    for (const field of ['name', 'email', 'links_per_month', 'team_size'] as const) {
      expect(await screen.findByText(QUOTE_MESSAGES[field])).toBeVisible();
    }
    expect(sent).toEqual([]);
  });

  it('fills in a signed-in person’s name and address', ROOMY, async () => {
    open(() => json('x'), true);
    const world = signedInWorld();
    const email = await screen.findByLabelText(/^Work e-mail/);
    await waitFor(() => expect(email).toHaveValue(world.user?.email));
  });

  it(
    'shows the server’s refusal on its field, the rate limit and a failure above the form',
    ROOMY,
    async () => {
      let answer: Response = postgrestError(422, {
        message: 'team_size_invalid',
        details: QUOTE_MESSAGES.team_size,
        hint: 'team_size',
      });
      const { user } = open(() => answer.clone());
      await fillAll(user);
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      expect(await screen.findByText(QUOTE_MESSAGES.team_size)).toBeVisible();

      answer = postgrestError(429, { message: 'too_many_attempts', details: 'Too Many Attempts.' });
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(TOO_MANY);

      answer = postgrestError(500, { code: 'XX000', message: 'boom' });
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(NOT_SENT));
    },
  );
});
