import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import { WebhooksPanel } from './WebhooksPanel.tsx';

const ENDPOINT = {
  id: 'e1',
  url: 'https://hooks.example.com/in',
  description: null,
  events: ['link.created'],
  enabled: false,
  disabled_reason: 'failing',
  created_at: '2026-11-26T10:00:00Z',
};

function open(script: (backend: TestBackend) => void) {
  const backend = new TestBackend();
  const rendered = render(<WebhooksPanel accountId="acc-1" />, {
    world: signedInWorld(),
    backend,
  });
  script(backend);
  return rendered;
}

describe('WebhooksPanel', () => {
  it('says there is nothing yet when the account has no endpoint and no delivery', async () => {
    open((backend) => {
      backend.on('GET', '/rest/v1/webhook_endpoints', () => json([]));
      backend.on('GET', '/rest/v1/webhook_deliveries', () => json([]));
    });
    expect(await screen.findByText(/No endpoints yet/)).toBeInTheDocument();
    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
  });

  it('shows an endpoint disabled after failures, and the log with status, response and latency', async () => {
    open((backend) => {
      backend.on('GET', '/rest/v1/webhook_endpoints', () => json([ENDPOINT]));
      backend.on('GET', '/rest/v1/webhook_deliveries', () =>
        json([
          {
            id: 'd1',
            endpoint_id: 'e1',
            message_id: 'msg_1',
            event_type: 'link.created',
            status: 'failed',
            attempts: 12,
            last_response_status: 500,
            created_at: '2026-11-26T10:00:00Z',
            next_attempt_at: '2026-11-26T10:00:00Z',
            webhook_attempts: [
              {
                id: 9,
                attempted_at: '2026-11-27T10:00:00Z',
                succeeded: false,
                response_status: 500,
                latency_ms: 42,
                error: 'HTTP 500',
              },
            ],
          },
        ]),
      );
    });
    const card = await screen.findByRole('article', { name: `Endpoint ${ENDPOINT.url}` });
    expect(within(card).getByText('Disabled after failures')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Send test event' })).toBeDisabled();
    const log = await screen.findByRole('table', { name: 'Delivery log' });
    expect(within(log).getByText('failed')).toBeInTheDocument();
    expect(within(log).getByText('500')).toBeInTheDocument();
    expect(within(log).getByText('42 ms')).toBeInTheDocument();
    expect(within(log).getByRole('button', { name: 'Replay link.created msg_1' })).toBeEnabled();
  });

  it('offers to try again when the endpoints cannot be loaded', async () => {
    open((backend) => {
      backend.on('GET', '/rest/v1/webhook_endpoints', () =>
        postgrestError(500, { message: 'boom' }),
      );
      backend.on('GET', '/rest/v1/webhook_deliveries', () => json([]));
    });
    expect(await screen.findByText('The endpoints could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the destination rule’s refusal under the URL field', async () => {
    const { user } = open((backend) => {
      backend.on('GET', '/rest/v1/webhook_endpoints', () => json([]));
      backend.on('GET', '/rest/v1/webhook_deliveries', () => json([]));
      backend.on('POST', '/rest/v1/webhook_endpoints', () =>
        postgrestError(422, {
          message: 'url_not_allowed',
          details: 'This URL is not allowed.',
          hint: 'url',
        }),
      );
    });
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    await user.type(
      within(dialog).getByRole('textbox', { name: /Endpoint URL/ }),
      'http://10.0.0.1/',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save endpoint' }));
    expect(await within(dialog).findByText('This URL is not allowed.')).toBeInTheDocument();
  });

  it('asks before deleting an endpoint and says inside the dialog when it fails', async () => {
    const { user } = open((backend) => {
      backend.on('GET', '/rest/v1/webhook_endpoints', () => json([ENDPOINT]));
      backend.on('GET', '/rest/v1/webhook_deliveries', () => json([]));
      backend.on('DELETE', '/rest/v1/webhook_endpoints', () =>
        postgrestError(500, { message: 'boom' }),
      );
    });
    const card = await screen.findByRole('article', { name: `Endpoint ${ENDPOINT.url}` });
    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete endpoint' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The endpoint could not be deleted. Please try again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Delete endpoint' })).toBeNull();
  });
});
