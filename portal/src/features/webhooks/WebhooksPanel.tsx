import { Alert, Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useDeleteWebhookEndpointMutation } from '../../data/webhooks/endpoint-delete-mutation.ts';
import { useSaveWebhookEndpointMutation } from '../../data/webhooks/endpoint-save-mutation.ts';
import {
  useWebhookEndpointsQuery,
  type WebhookEndpointRow,
} from '../../data/webhooks/endpoints-query.ts';
import type { WebhookEvent } from '../../data/webhooks/keys.ts';
import { useSendTestWebhookMutation } from '../../data/webhooks/test-send-mutation.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { EndpointCard } from './EndpointCard.tsx';
import { EndpointForm } from './EndpointForm.tsx';
import { endpointUrlError } from './webhookErrors.ts';
import { ConfirmRemovalModal } from '../../components/ConfirmRemovalModal.tsx';

type Editing = { endpoint: WebhookEndpointRow | null } | null;

/**
 * The webhooks of one account (a person's, a team's or an organization's): endpoints and the
 * delivery log. The caller decides the scope and checks the plan feature.
 */
export function WebhooksPanel({ accountId }: { accountId: string }) {
  const endpoints = useWebhookEndpointsQuery(accountId);
  const save = useSaveWebhookEndpointMutation(accountId);
  const remove = useDeleteWebhookEndpointMutation(accountId);
  const test = useSendTestWebhookMutation(accountId);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const close = () => {
    setEditing(null);
    save.reset();
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md" component="section" aria-label="Endpoints">
        <Group justify="space-between" mb="md">
          <Title order={2} size="h4">
            Endpoints
          </Title>
          <Button onClick={() => setEditing({ endpoint: null })}>Add endpoint</Button>
        </Group>
        {notice && (
          <Alert
            color="green"
            role="status"
            withCloseButton
            onClose={() => setNotice(null)}
            mb="md"
          >
            {notice}
          </Alert>
        )}
        {test.isError && (
          <Alert color="red" role="alert" mb="md">
            The test event could not be sent.
          </Alert>
        )}
        {endpoints.isPending ? (
          <Loader size="sm" aria-label="Loading endpoints" />
        ) : endpoints.isError ? (
          <Alert color="red" title="The endpoints could not be loaded">
            <Button variant="light" size="xs" mt="xs" onClick={() => void endpoints.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : endpoints.data.length === 0 ? (
          <Text c="dimmed">
            No endpoints yet. Add one to receive events about your links as they happen.
          </Text>
        ) : (
          <Stack>
            {endpoints.data.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                onEdit={() => setEditing({ endpoint })}
                onDelete={() => setDeleting(endpoint)}
                onToggle={(enabled) =>
                  save.mutate({
                    id: endpoint.id,
                    url: endpoint.url,
                    description: endpoint.description,
                    events: endpoint.events as WebhookEvent[],
                    enabled,
                  })
                }
                onTest={() =>
                  test.mutate(endpoint.id, {
                    onSuccess: () =>
                      setNotice('Test event queued. It appears in the delivery log.'),
                  })
                }
                testing={test.isPending && test.variables === endpoint.id}
              />
            ))}
          </Stack>
        )}
      </Paper>

      <Paper withBorder p="lg" radius="md" component="section" aria-label="Delivery log">
        <Title order={2} size="h4" mb="md">
          Delivery log
        </Title>
        <DeliveryLog accountId={accountId} endpoints={endpoints.data ?? []} />
      </Paper>

      <Modal
        opened={editing !== null}
        onClose={close}
        title={editing?.endpoint ? 'Edit endpoint' : 'Add endpoint'}
      >
        {editing && (
          <EndpointForm
            endpoint={editing.endpoint}
            saving={save.isPending}
            urlError={endpointUrlError(save.error)}
            onCancel={close}
            onSubmit={(input) =>
              save.mutate(
                { ...input, id: editing.endpoint?.id },
                {
                  onSuccess: () => {
                    close();
                    setNotice(editing.endpoint ? 'Endpoint saved.' : 'Endpoint added.');
                  },
                },
              )
            }
          />
        )}
        {save.isError && endpointUrlError(save.error) === null && (
          <Alert color="red" role="alert" mt="md">
            The endpoint could not be saved. Please try again.
          </Alert>
        )}
      </Modal>

      <ConfirmRemovalModal
        opened={deleting !== null}
        title="Delete endpoint"
        confirmLabel="Delete"
        pending={remove.isPending}
        error={remove.isError ? 'The endpoint could not be deleted. Please try again.' : null}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              setNotice('Endpoint deleted.');
            },
          })
        }
      >
        Delete {deleting?.url}? Its delivery log goes with it, and no more events are sent there.
      </ConfirmRemovalModal>
    </Stack>
  );
}
