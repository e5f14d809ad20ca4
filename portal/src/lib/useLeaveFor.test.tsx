import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { TestBackend } from '../test/backend.ts';
import { createTestServices } from '../test/services.ts';
import { ServicesContext } from './servicesContext.ts';
import { useLeaveFor } from './useLeaveFor.ts';

/** Only the services the hook reads, so that StrictMode wraps the component's first mount. */
function renderWithServices(ui: ReactNode) {
  const { services, leave } = createTestServices(new TestBackend());
  render(
    <StrictMode>
      <ServicesContext.Provider value={services}>{ui}</ServicesContext.Provider>
    </StrictMode>,
  );
  return { leave };
}

function Leaving({ url }: { url: string | null }) {
  useLeaveFor(url);
  return null;
}

describe('useLeaveFor', () => {
  it('leaves once, although StrictMode runs the effect twice (a second replace aborts the first)', () => {
    const { leave } = renderWithServices(<Leaving url="http://kiosk.test/users" />);
    expect(leave.mock.calls).toEqual([['http://kiosk.test/users']]);
  });

  it('stays when there is nowhere to go, and leaves once there is', async () => {
    function Later() {
      const [url, setUrl] = useState<string | null>(null);
      useLeaveFor(url);
      return <button onClick={() => setUrl('http://help.test/')}>Go</button>;
    }
    const { leave } = renderWithServices(<Later />);
    expect(leave).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go' }));
    expect(leave.mock.calls).toEqual([['http://help.test/']]);
  });
});
