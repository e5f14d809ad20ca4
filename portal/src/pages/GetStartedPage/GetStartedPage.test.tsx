import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

const progress = (taken: Partial<Record<string, boolean>> = {}) => [
  {
    link_created: false,
    click_received: false,
    domain_added: false,
    two_factor_enabled: false,
    team_invited: false,
    ...taken,
  },
];

// The first render loads the page's lazy module: slow on a busy machine.
describe('get-started', { timeout: 20_000 }, () => {
  it('ticks the steps taken, counts them in the progress bar and links to the others', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/onboarding_progress', () =>
      json(progress({ link_created: true, two_factor_enabled: true })),
    );
    renderApp({ route: '/app/get-started', world: signedInWorld(), backend });
    expect(await screen.findByText('2 of 5 done')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: '2 of 5 done' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    const steps = within(screen.getByRole('list', { name: 'First steps' })).getAllByRole(
      'listitem',
    );
    expect(steps.map((step) => step.getAttribute('data-done'))).toEqual([
      'true',
      'false',
      'false',
      'true',
      'false',
    ]);
    expect(steps[0]).toHaveTextContent('Make your first short link (done)');
    // A step taken needs no link; the others lead where they are done.
    expect(within(steps[0]!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(steps[2]!).getByRole('link', { name: 'Add a domain' })).toHaveAttribute(
      'href',
      '/app/settings/branded-domains',
    );
    expect(within(steps[4]!).getByRole('link', { name: 'Invite a team member' })).toHaveAttribute(
      'href',
      '/app/settings/teams',
    );
  });

  it('says so when the steps cannot be loaded, and tries again', async () => {
    let calls = 0;
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/onboarding_progress', () =>
      ++calls === 1
        ? postgrestError(500, { message: 'boom' })
        : json(progress({ link_created: true })),
    );
    const { user } = renderApp({ route: '/app/get-started', world: signedInWorld(), backend });
    const alert = await screen.findByRole(
      'alert',
      { name: /could not be loaded/ },
      { timeout: 10_000 },
    );
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 of 5 done')).toBeInTheDocument();
  });
});
