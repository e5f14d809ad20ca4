import { Alert, Anchor, Badge, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { isOrderFailed, paymentStatusLabel } from '@shortlane/shared/orders.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { Link, useParams } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useOrderQuery } from '../../data/billing-documents/orders-query.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { href, paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { formatDate } from '../billing/SubscriptionPage.tsx';
import { orderStatusColour, orderStatusSummary } from './orderStatus.ts';
import { useOrderDomainsQuery } from '../../data/domain-purchase/cart.ts';
import { OrderDomainsTable } from '../domain-purchase/PurchasedDomainState.tsx';

/**
 * settings/order/{orderId} and its notification: one order's items, amounts and payment state
 * (the spec's labels); the notification is the notice about where that payment stands.
 */
export default function OrderPage() {
  const route = useCurrentRouteName();
  const notification = route === 'shopping-cart.orders.order.notification';
  const { orderId } = useParams();
  const { locale } = useAppState();
  const order = useOrderQuery(orderId);
  const domains = useOrderDomainsQuery(orderId);
  usePageTitle(notification ? 'Order notification' : 'Order');

  if (order.isPending) return <Loader size="sm" />;
  if (order.isError) return <Alert color="red" title="The order could not be loaded" />;
  if (!order.data)
    return (
      <Alert title="Order not found">
        This order does not exist or is not yours to see.{' '}
        <Anchor component={Link} to={paths['shopping-cart.orders']}>
          All orders
        </Anchor>
      </Alert>
    );
  const data = order.data;
  const label = paymentStatusLabel(data.status) ?? 'new';
  const money = (amount: number) => formatMoney(amount, data.currency ?? undefined, locale);
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Title order={1}>
          {notification ? 'Order notification' : `Order #${data.id.slice(0, 8)}`}
        </Title>
        <Badge variant="light" color={orderStatusColour(data.status)} data-testid="order-status">
          {label}
        </Badge>
      </Group>
      <Alert
        color={orderStatusColour(data.status)}
        role="status"
        title={notification ? `Order #${data.id.slice(0, 8)}` : undefined}
      >
        {orderStatusSummary(data.status)}
        {isOrderFailed(data.status) && (
          <>
            {' '}
            <Anchor component={Link} to={paths['settings.paymentMethod']}>
              Payment method
            </Anchor>
          </>
        )}
      </Alert>
      {!notification && (
        <SettingsSection title="Items">
          <Table aria-label="Order items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Quantity</Table.Th>
                <Table.Th>Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.order_items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.description}</Table.Td>
                  <Table.Td>{item.quantity}</Table.Td>
                  <Table.Td>{money(item.amount)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={700}>Total</Table.Td>
                <Table.Td />
                <Table.Td fw={700}>{money(data.amount)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm" mt="sm">
            Ordered on {formatDate(data.created_at, locale)}.
          </Text>
        </SettingsSection>
      )}
      {(domains.data?.length ?? 0) > 0 && (
        <SettingsSection title="Domains">
          <OrderDomainsTable rows={domains.data!} />
        </SettingsSection>
      )}
      <Group>
        {notification ? (
          <Anchor component={Link} to={href('shopping-cart.orders.order', { orderId: data.id })}>
            See the order
          </Anchor>
        ) : (
          <Anchor
            component={Link}
            to={href('shopping-cart.orders.order.notification', { orderId: data.id })}
          >
            Order notification
          </Anchor>
        )}
        <Anchor component={Link} to={paths['shopping-cart.orders']}>
          All orders
        </Anchor>
      </Group>
    </Stack>
  );
}
