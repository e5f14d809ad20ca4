import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { Link } from 'react-router-dom';
import {
  useCartQuery,
  useCartYearsMutation,
  useDomainCheckoutMutation,
  useRemoveFromCartMutation,
} from '../../data/domain-purchase/cart.ts';
import { useBillingCustomerQuery } from '../../data/billing-documents/billing-customer-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { errorMessage } from './errors.ts';

export const CART_EMPTY = 'Nothing to checkout, the cart is empty';
const YEARS = Array.from({ length: 10 }, (_, index) => String(index + 1));

/**
 * purchase/domain/cart and shopping-cart: the names in the cart with their prices (computed by
 * the database), years per name, removal and the checkout (payment flow domain-purchase).
 */
export default function CartPage() {
  usePageTitle('Shopping cart');
  const { locale } = useAppState();
  const cart = useCartQuery();
  const years = useCartYearsMutation();
  const remove = useRemoveFromCartMutation();
  const checkout = useDomainCheckoutMutation();
  // Domains are bought for the personal account, through its preferred provider.
  const customer = useBillingCustomerQuery(useProfileQuery().data?.personal_account_id);
  const billingType = customer.data?.billing_type === 2 ? 2 : 1;
  const items = cart.data?.items ?? [];
  const money = (amount: number) => formatMoney(amount, cart.data?.currency, locale);

  const pay = () =>
    checkout.mutate(billingType === 2 ? { billing_type: 2 } : {}, {
      onSuccess: (answer) => {
        // Stripe's page, or our /paddle/payment page that opens Paddle's overlay.
        window.location.assign(answer.checkout.payment_url);
      },
    });

  return (
    <Stack gap="lg">
      <Title order={1}>Shopping cart</Title>
      {cart.isError && (
        <Alert color="red" role="alert" title="The cart could not be loaded">
          {errorMessage(cart.error)}
        </Alert>
      )}
      {cart.data && items.length === 0 && (
        <Alert title={CART_EMPTY} role="status">
          <Anchor component={Link} to={paths['purchase.domain']}>
            Search for a domain
          </Anchor>
        </Alert>
      )}
      {items.length > 0 && (
        <>
          <Table aria-label="Cart">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Domain</Table.Th>
                <Table.Th>Years</Table.Th>
                <Table.Th>Price per year</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id} data-testid="cart-item">
                  <Table.Td>{item.domain}</Table.Td>
                  <Table.Td>
                    <NativeSelect
                      aria-label={`Years for ${item.domain}`}
                      data={YEARS}
                      value={String(item.years)}
                      disabled={years.isPending}
                      onChange={(event) =>
                        years.mutate({ id: item.id, years: Number(event.currentTarget.value) })
                      }
                    />
                  </Table.Td>
                  <Table.Td>{money(item.yearly_amount)}</Table.Td>
                  <Table.Td>
                    {money(item.amount)}
                    {item.discount > 0 && (
                      <Text size="xs" c="dimmed">
                        {money(item.discount)} off the first year (your plan)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => remove.mutate(item.id)}
                      aria-label={`Remove ${item.domain}`}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text fw={600} data-testid="cart-total">
              Total: {money(cart.data!.total)}
            </Text>
            {/* The provider is known before the checkout starts. */}
            <Button onClick={pay} loading={checkout.isPending || customer.isLoading}>
              Checkout
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Your domains renew every year at the price per year; you can see them under Branded
            domains and Orders.
          </Text>
        </>
      )}
      {checkout.isError && (
        <Alert color="red" role="alert" title="The checkout could not start">
          {errorMessage(checkout.error)}
        </Alert>
      )}
    </Stack>
  );
}
