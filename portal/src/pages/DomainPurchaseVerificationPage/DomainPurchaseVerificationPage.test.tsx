import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

const PERSONAL = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
const SLOW = { timeout: 10_000 };

const domain = (name: string, status: string, verifiedAt: string | null) => ({
  id: name,
  domain: name,
  kind: 'branded',
  account_id: PERSONAL,
  base_domain_id: null,
  for_all_teams: true,
  root_redirect_url: null,
  not_found_redirect_url: null,
  verification_status: status,
  verification_token: 'tok',
  verification_problem: null,
  verification_checked_at: null,
  verification_next_check_at: null,
  verification_deadline: null,
  verified_at: verifiedAt,
  created_at: '2026-11-26T10:00:00Z',
  is_deleted: false,
});

describe('domain-purchase-verification', { timeout: 30_000 }, () => {
  it("shows each of the account's domains with its verification state", async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/domain_link_counts', () => json([]));
    renderApp({
      route: '/app/domain-purchase-verification',
      world: signedInWorld({
        domains: [
          domain('bought.example', 'pending', null),
          domain('older.example', 'verified', '2026-11-20T10:00:00Z'),
        ],
      }),
      backend,
    });
    const table = await screen.findByRole('table', { name: 'Your domains' }, SLOW);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('bought.examplePending'),
      expect.stringContaining('older.exampleVerified'),
    ]);
  });

  it('with no domain yet, leads to buying one', async () => {
    renderApp({ route: '/app/domain-purchase-verification', world: signedInWorld() });
    expect(await screen.findByText(/No domain yet/, {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy a domain' })).toHaveAttribute(
      'href',
      '/app/purchase/domain',
    );
  });
});
