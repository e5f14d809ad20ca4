import { Alert, Anchor, Badge, Loader, Table, Text, Title, Stack } from '@mantine/core';
import { paymentStatusLabel } from '@shortlane/shared/orders.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { Link } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useOrdersQuery } from '../../data/billing-documents/orders-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { formatDate } from '../billing/SubscriptionPage.tsx';
import { orderStatusColour } from './orderStatus.ts';

/** settings/orders (shopping-cart.orders): the user's orders with their payment state. */
export default function OrdersPage() {
  usePageTitle('Orders');
  const { locale } = useAppState();
  const profile = useProfileQuery();
  const orders = useOrdersQuery(profile.data?.personal_account_id);
  return (
    <Stack gap="lg">
      <Title order={1}>Orders</Title>
      <SettingsSection title="Your orders">
        {orders.isPending && <Loader size="sm" />}
        {orders.isError && <Alert color="red" title="Your orders could not be loaded" />}
        {orders.isSuccess && orders.data.length === 0 && <Text>No orders yet.</Text>}
        {orders.isSuccess && orders.data.length > 0 && (
          <Table aria-label="Orders" verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Items</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Payment</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.data.map((order) => (
                <Table.Tr key={order.id}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={href('shopping-cart.orders.order', { orderId: order.id })}
                    >
                      #{order.id.slice(0, 8)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDate(order.created_at, locale)}</Table.Td>
                  <Table.Td>
                    {order.order_items.map((item) => item.description).join(', ')}
                  </Table.Td>
                  <Table.Td>
                    {formatMoney(order.amount, order.currency ?? undefined, locale)}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={orderStatusColour(order.status)}>
                      {paymentStatusLabel(order.status) ?? 'new'}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </SettingsSection>
    </Stack>
  );
}
