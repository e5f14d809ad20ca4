import { MESSAGES } from '@shortlane/shared/messages.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { TEST_USER_ID } from '../../test/world.ts';
import { UpdateVerificationPanel } from './SubscriptionChangePanels.tsx';

describe('update verification', () => {
  it(
    'says the update takes too long past its bound, and stops asking',
    { timeout: 20_000 },
    async () => {
      const backend = new TestBackend();
      let asked = 0;
      backend.on('GET', '/functions/v1/billing/organization/acme/subscription', () => {
        asked++;
        return json({ subscription: { name: 'pro', interval: 'monthly' }, future: null });
      });
      const testServices = createTestServices(backend);
      await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
      render(
        <UpdateVerificationPanel
          scope={{ kind: 'organization', org: 'acme' }}
          plan="pro"
          interval="yearly"
          boundMs={2_500}
        />,
        { backend, testServices },
      );
      expect(
        await screen.findByText(MESSAGES.subscriptionUpdateTooLong, {}, { timeout: 8_000 }),
      ).toBeInTheDocument();
      const settled = asked;
      expect(settled).toBeGreaterThan(1);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(asked).toBe(settled);
    },
  );
});
