import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import UnsubscribePage, { LINK_FAILED, LINK_INVALID } from './UnsubscribePage.tsx';

const TOKEN = 'a1'.repeat(24);

function open(route: string, backend = new TestBackend(), signedIn = false) {
  return render(<UnsubscribePage />, {
    route,
    backend,
    world: signedIn ? signedInWorld() : {},
  });
}

const bodies: unknown[] = [];
function linkBackend(answer: (receive: boolean) => Response) {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/set_mailings_by_link', async (request) => {
    const body = (await request.json()) as { p_token: string; p_receive: boolean };
    bodies.push(body);
    return answer(body.p_receive);
  });
  return backend;
}

// Rendering loads the page's modules first: slow on a busy machine.
const ROOMY = { timeout: 30_000 };

describe('UnsubscribePage', () => {
  it(
    'changes nothing on opening the link; one click unsubscribes, another resubscribes',
    ROOMY,
    async () => {
      bodies.length = 0;
      const backend = linkBackend((receive) =>
        json({ email: 'ad***@example.com', receives_mailings: receive }),
      );
      const { user } = open(`/app/unsubscribe?token=${TOKEN}`, backend);
      const unsubscribe = await screen.findByRole('button', { name: 'Unsubscribe' });
      expect(bodies).toEqual([]);

      await user.click(unsubscribe);
      expect(await screen.findByRole('status')).toHaveTextContent(
        'ad***@example.com will no longer receive product e-mails.',
      );
      expect(bodies).toEqual([{ p_token: TOKEN, p_receive: false }]);

      await user.click(screen.getByRole('button', { name: 'Resubscribe' }));
      await waitFor(() =>
        expect(screen.getByRole('status')).toHaveTextContent(
          'ad***@example.com receives product e-mails again.',
        ),
      );
      expect(bodies.at(-1)).toEqual({ p_token: TOKEN, p_receive: true });
    },
  );

  it(
    'says what to do with a link that is not valid, and when the server fails',
    ROOMY,
    async () => {
      let status = 404;
      const backend = linkBackend(() =>
        status === 404
          ? postgrestError(404, { message: 'unsubscribe_link_invalid', hint: 'token' })
          : postgrestError(500, { code: 'XX000', message: 'boom' }),
      );
      const { user } = open(`/app/unsubscribe?token=${TOKEN}`, backend);
      await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(LINK_INVALID);
      status = 500;
      await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(LINK_FAILED));
    },
  );

  it('a guest without a link is sent to log in, and comes back here', ROOMY, async () => {
    open('/app/unsubscribe');
    const login = await screen.findByRole('link', { name: 'Log in' });
    expect(login).toHaveAttribute('href', '/app/login?to=%2Fapp%2Funsubscribe');
  });

  it('a signed-in person switches their own e-mails off', ROOMY, async () => {
    const backend = new TestBackend();
    backend.on('GET', '/rest/v1/profiles', (request) =>
      new URL(request.url).searchParams.get('select') === 'status'
        ? json({ status: 4 })
        : json(signedInWorld().profile),
    );
    const calls: unknown[] = [];
    backend.on('POST', '/rest/v1/rpc/set_my_mailings', async (request) => {
      const body = (await request.json()) as { p_receive: boolean };
      calls.push(body);
      return json(body.p_receive);
    });
    const { user } = open('/app/unsubscribe', backend, true);
    const toggle = await screen.findByRole('switch', { name: /Product news, tips and offers/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You will no longer receive product e-mails.',
    );
    expect(calls).toEqual([{ p_receive: false }]);
    expect(toggle).not.toBeChecked();
  });
});
