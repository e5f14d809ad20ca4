import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../../test/render.tsx';
import { signedInWorld, type TestWorld } from '../../../test/world.ts';
import { domainRow } from './testing.ts';

/**
 * "Add Domain" under the create form's domain select (link-creation 8), on the home page where
 * guests meet it: each gate sends its viewer on with the spec's message. The settings page's
 * button is the same component (DomainPages.test.tsx covers it there).
 */

const ROOMY = { timeout: 30_000 };
const DOMAINS = [domainRow('shrt.test', { allow_for_guests: true })];

async function renderHome(world: TestWorld) {
  const rendered = renderApp({ route: '/app', world: { domains: DOMAINS, ...world } });
  const form = await screen.findByRole('region', { name: 'Shorten a link' }, { timeout: 25_000 });
  await within(form).findByLabelText(/Long URL/, undefined, { timeout: 10_000 });
  return { ...rendered, form };
}

async function clickAddDomain(world: TestWorld) {
  const rendered = await renderHome(world);
  await rendered.user.click(within(rendered.form).getByRole('button', { name: 'Add Domain' }));
  return rendered;
}

describe('the domain choices', () => {
  it('are read among the domains the redirect serves (verified, not deleted)', ROOMY, async () => {
    const { backend } = await renderHome({});
    // The create form's read (the app state's own list of domains asks for other columns).
    const reads = backend
      .requestsTo('GET', '/rest/v1/domains')
      .map((request) => new URL(request.url))
      .filter((url) => url.searchParams.get('select')?.includes('for_all_teams'));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.searchParams.get('verification_status')).toBe('eq.verified');
      expect(read.searchParams.get('is_deleted')).toBe('eq.false');
    }
  });
});

describe('Add Domain in the create form (link-creation 8)', () => {
  it("sends a guest to register with 'log_in_or_register'", ROOMY, async () => {
    const { router } = await clickAddDomain({});
    await waitFor(() => expect(currentUrl(router)).toBe('/app/register'));
    expect(await screen.findByText('Log in or register to continue.')).toBeInTheDocument();
  });

  it(
    "sends an unverified user to e-mail verification with 'email_verification_check'",
    ROOMY,
    async () => {
      const { router } = await clickAddDomain(
        signedInWorld({
          user: { id: 'u-unverified', email: 'u@example.com', emailConfirmed: false },
        }),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/app/email/verify'));
      expect(
        await screen.findByText('Check your inbox and verify your e-mail address first.'),
      ).toBeInTheDocument();
    },
  );

  it(
    "sends a user without a subscription to billing with 'billing.not_subscribed'",
    ROOMY,
    async () => {
      const { router } = await clickAddDomain(signedInWorld());
      await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/subscription'));
      expect(await screen.findByText('This needs a subscription.')).toBeInTheDocument();
    },
  );
});
