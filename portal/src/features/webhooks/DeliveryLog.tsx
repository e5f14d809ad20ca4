import { Alert, Badge, Button, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import { useWebhookDeliveriesQuery } from '../../data/webhooks/deliveries-query.ts';
import { useReplayWebhookDeliveryMutation } from '../../data/webhooks/delivery-replay-mutation.ts';
import type { WebhookEndpointRow } from '../../data/webhooks/endpoints-query.ts';

const STATUS_COLORS: Record<string, string> = {
  pending: 'gray',
  retrying: 'orange',
  succeeded: 'green',
  failed: 'red',
};

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/** The last deliveries of the account with their last attempt, and replay. */
export function DeliveryLog({
  accountId,
  endpoints,
}: {
  accountId: string;
  endpoints: readonly WebhookEndpointRow[];
}) {
  const deliveries = useWebhookDeliveriesQuery(accountId);
  const replay = useReplayWebhookDeliveryMutation(accountId);
  const urlOf = (id: string) => endpoints.find((endpoint) => endpoint.id === id)?.url ?? '—';

  if (deliveries.isPending) return <Loader size="sm" aria-label="Loading the delivery log" />;
  if (deliveries.isError)
    return (
      <Alert color="red" title="The delivery log could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void deliveries.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  if (deliveries.data.length === 0)
    return <Text c="dimmed">No deliveries yet. Send a test event to see one here.</Text>;

  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label="Delivery log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Response</Table.Th>
            <Table.Th>Latency</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data.map((delivery) => {
            const last = delivery.webhook_attempts[0];
            return (
              <Table.Tr key={delivery.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {delivery.event_type}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {delivery.message_id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" truncate maw={220}>
                    {urlOf(delivery.endpoint_id)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[delivery.status] ?? 'gray'} variant="light">
                    {delivery.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{last ? (last.response_status ?? last.error ?? '—') : '—'}</Table.Td>
                <Table.Td>{last ? `${last.latency_ms} ms` : '—'}</Table.Td>
                <Table.Td>{delivery.attempts}</Table.Td>
                <Table.Td>{formatTime(delivery.created_at)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    loading={replay.isPending && replay.variables === delivery.id}
                    onClick={() => replay.mutate(delivery.id)}
                    aria-label={`Replay ${delivery.event_type} ${delivery.message_id}`}
                  >
                    Replay
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
