import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { PurchasedDomainState } from '../../data/domain-purchase/cart.ts';

const LABELS: Record<string, { text: string; colour: string }> = {
  pending: { text: 'waiting for payment', colour: 'gray' },
  registering: { text: 'being registered', colour: 'blue' },
  registered: { text: 'registered', colour: 'green' },
  cancelled: { text: 'cancelled', colour: 'gray' },
  failed: { text: 'not registered', colour: 'red' },
  renewing: { text: 'renewing', colour: 'blue' },
  renewal_failed: { text: 'renewal failed', colour: 'red' },
};

/** A paid name that was not registered, its payment given back. */
const REFUNDED = { text: 'refunded', colour: 'orange' };

const day = (value: string | null) => (value ? value.slice(0, 10) : null);

/** A bought domain's registration and renewal state, as its owner sees it. */
export function PurchasedDomainNote({ state }: { state: PurchasedDomainState }) {
  const label = state.refunded_at
    ? REFUNDED
    : (LABELS[state.status] ?? { text: state.status, colour: 'gray' });
  const expires = day(state.expires_at);
  // A name whose order was refunded keeps its term but is never renewed: it lapses.
  const lapses = state.status === 'renewal_failed' || state.renewal_stop != null;
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Badge size="xs" variant="light" color={label.colour}>
          Purchased · {label.text}
        </Badge>
        {expires && (
          <Text span size="xs" c="dimmed">
            {lapses ? 'expires' : 'renews'} {expires}
          </Text>
        )}
      </Group>
      {state.problem && (state.status !== 'registered' || state.renewal_stop != null) && (
        <Text size="xs" c={state.status === 'registered' ? 'dimmed' : 'red'}>
          {state.problem}
        </Text>
      )}
    </Stack>
  );
}

/** The names an order bought or renewed, for the order page. */
export function OrderDomainsTable({ rows }: { rows: readonly PurchasedDomainState[] }) {
  return (
    <Table aria-label="Domains of this order">
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>{row.domain}</Table.Td>
            <Table.Td>
              <PurchasedDomainNote state={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
