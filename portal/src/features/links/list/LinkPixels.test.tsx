import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import { json, TestBackend } from '../../../test/backend.ts';
import { render } from '../../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../../test/world.ts';
import { LinkPixels } from './LinkPixels.tsx';

const LINK: LinkListItem = {
  id: '00000000-0000-4000-8000-000000002101',
  alias: 'spring-launch',
  domain: 'pat-links.localhost',
  longUrl: 'https://pat.example.com/launch',
  status: 'active',
  expiresAt: null,
  description: null,
  tags: [],
  createdAt: '2026-10-01T10:00:00Z',
  accountId: 'account-1',
  organizationId: null,
  createdBy: 'user-1',
};
const PIXELS = [
  { id: 'px-1', provider: 'meta', pixel_id: '123456789012345', name: 'Spring', created_at: '' },
  { id: 'px-2', provider: 'linkedin', pixel_id: '5123456', name: 'B2B', created_at: '' },
];

function open(pixels: unknown[], attached: string[], emailConfirmed = true) {
  const backend = new TestBackend();
  backend.table('pixels', pixels);
  backend.table(
    'alias_pixels',
    attached.map((pixel_id) => ({ pixel_id })),
  );
  const world = signedInWorld({
    user: { id: TEST_USER_ID, email: 'ada@example.com', emailConfirmed },
  });
  return render(<LinkPixels link={LINK} />, { world, backend });
}

describe('LinkPixels', () => {
  it('shows the pixels the link fires and saves a new choice at once', async () => {
    const { backend, user } = open(PIXELS, ['px-1']);
    const saved: unknown[] = [];
    backend.on('POST', '/rest/v1/rpc/set_link_pixels', async (request) => {
      saved.push(await request.json());
      return json(['px-1', 'px-2']);
    });
    const section = await screen.findByRole('region', { name: 'Retargeting pixels' });
    // The saved choice is shown (as a pill; the closed list holds the option too).
    expect(within(section).getAllByText('Spring (Meta (Facebook))')[0]).toBeVisible();
    await user.click(within(section).getByRole('combobox', { name: 'Pixels fired on a visit' }));
    await user.click(await screen.findByRole('option', { name: 'B2B (LinkedIn)' }));
    await user.click(within(section).getByRole('button', { name: 'Save pixels' }));
    await waitFor(() =>
      expect(saved).toEqual([{ p_alias_id: LINK.id, p_pixel_ids: ['px-1', 'px-2'] }]),
    );
    const asked = new URL(backend.requestsTo('GET', '/rest/v1/pixels')[0]!.url);
    expect(asked.searchParams.get('account_id')).toBe('eq.account-1');
  }, 20_000);

  it('leads to the settings page when the account has no pixels', async () => {
    open([], []);
    const section = await screen.findByRole('region', { name: 'Retargeting pixels' });
    expect(within(section).getByRole('link', { name: 'Add pixels' })).toHaveAttribute(
      'href',
      '/app/settings/pixel-scripts',
    );
  });

  it('is not offered to an unverified user without a subscription', async () => {
    const { backend } = open(PIXELS, [], false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('region', { name: 'Retargeting pixels' })).toBeNull();
    expect(backend.requestsTo('GET', '/rest/v1/pixels')).toEqual([]);
  });
});
