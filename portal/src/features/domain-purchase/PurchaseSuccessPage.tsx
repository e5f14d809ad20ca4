import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { paymentStatusLabel } from '@shortlane/shared/orders.ts';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { isSettled, refundPending, useDomainOrderQuery } from '../../data/domain-purchase/cart.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href, paths } from '../../routes/paths.ts';
import { orderStatusColour } from '../billing-documents/orderStatus.ts';

const NAME_STATE: Record<string, string> = {
  pending: 'waiting for the payment',
  registering: 'being registered',
  registered: 'registered and ready',
  cancelled: 'cancelled',
  failed: 'not registered',
  renewing: 'renewing',
  renewal_failed: 'renewal failed',
};

/**
 * shopping-cart/success (shopping-cart.verify): back from the checkout with its session id. The
 * order moves as the payment and the registrar answer; the page follows it until it is settled.
 * An order that began with the free-trial promotion goes to its verification page.
 */
export default function PurchaseSuccessPage() {
  usePageTitle('Thank you for your order');
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const order = useDomainOrderQuery(sessionId);
  const navigate = useNavigate();
  const data = order.data ?? null;

  useEffect(() => {
    if (data?.status === 48 && data.purchase_source === 'freetrial')
      void navigate(paths['domain-purchase-verification'], { replace: true });
  }, [data, navigate]);

  if (!sessionId || order.isError || (order.isSuccess && !data))
    return (
      <Alert color="red" role="alert" title="We could not find this order">
        <Button component={Link} to={paths['shopping-cart.orders']} mt="sm" size="xs">
          Your orders
        </Button>
      </Alert>
    );
  if (!data) return <Loader size="sm" />;
  const settled = isSettled(data);
  return (
    <Stack gap="lg">
      <Title order={1}>Thank you for your order</Title>
      <Group gap="xs">
        <Text>
          Order{' '}
          <Anchor component={Link} to={href('shopping-cart.orders.order', { orderId: data.id })}>
            #{data.id.slice(0, 8)}
          </Anchor>
        </Text>
        <Badge variant="light" color={orderStatusColour(data.status)} data-testid="order-status">
          {paymentStatusLabel(data.status) ?? 'new'}
        </Badge>
      </Group>
      {!settled && (
        <Alert role="status" title="Setting up your domains" icon={<Loader size="xs" />}>
          {data.status === 16
            ? 'Waiting for the payment to be confirmed.'
            : data.purchased_domains.some(refundPending)
              ? 'A domain could not be registered; its payment is being refunded.'
              : 'The payment is done; your domains are being registered and set up.'}
        </Alert>
      )}
      <Table aria-label="Domains">
        <Table.Tbody>
          {data.purchased_domains.map((name) => (
            <Table.Tr key={name.id} data-testid="purchased-domain">
              <Table.Td>{name.domain}</Table.Td>
              <Table.Td>
                {name.refunded_at ? 'refunded' : (NAME_STATE[name.status] ?? name.status)}
              </Table.Td>
              <Table.Td>{name.problem}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data.status === 48 && (
        <Button component={Link} to={paths['settings.brandedDomains']}>
          See your domains
        </Button>
      )}
    </Stack>
  );
}
