import { Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  type DomainStatus,
  useAddToCartMutation,
  useCartQuery,
  useDomainSearchQuery,
} from '../../data/domain-purchase/cart.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { errorMessage } from './errors.ts';

const STATUS_COLOUR: Record<DomainStatus, string> = {
  available: 'green',
  taken: 'gray',
  invalid: 'red',
  unknown: 'yellow',
  'in cart': 'blue',
};

/**
 * purchase/domain and purchase-domains: search a name, see each extension's status (the spec's
 * domain status) and yearly price, and put the available ones in the cart.
 */
export default function PurchaseDomainPage() {
  usePageTitle('Buy a domain');
  const { locale } = useAppState();
  const [params, setParams] = useSearchParams();
  const searched = params.get('name') ?? '';
  const [typed, setTyped] = useState(searched);
  const search = useDomainSearchQuery(searched);
  const cart = useCartQuery();
  const add = useAddToCartMutation();
  const quantity = cart.data?.items.length ?? 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams(typed.trim() === '' ? {} : { name: typed.trim() });
  };

  return (
    <Stack gap="lg">
      <Title order={1}>Buy a domain</Title>
      <Text>
        Search for a name; a domain you buy is registered for you, set up and verified, and ready
        for your short links.
      </Text>
      <form onSubmit={submit} role="search" aria-label="Domain search">
        <Group align="flex-end">
          <TextInput
            label="Domain name"
            placeholder="yourbrand"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {search.isError && (
        <Alert color="red" role="alert" title="The search failed">
          {errorMessage(search.error)}
        </Alert>
      )}
      {add.isError && (
        <Alert color="red" role="alert" title="Not added to the cart">
          {errorMessage(add.error)}
        </Alert>
      )}
      {search.isFetching && !search.data && <Text c="dimmed">Searching…</Text>}
      {search.data && (
        <Table aria-label="Search results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Domain</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Price per year</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {search.data.results.map((row) => (
              <Table.Tr key={row.domain} data-testid="domain-result">
                <Table.Td>{row.domain}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLOUR[row.status]}>
                    {row.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {row.first_year_amount < row.yearly_amount ? (
                    <>
                      {formatMoney(row.first_year_amount, row.currency, locale)} the first year,
                      then {formatMoney(row.yearly_amount, row.currency, locale)}
                    </>
                  ) : (
                    formatMoney(row.yearly_amount, row.currency, locale)
                  )}
                </Table.Td>
                <Table.Td>
                  {row.status === 'available' && (
                    <Button
                      size="xs"
                      loading={add.isPending && add.variables === row.domain}
                      onClick={() => add.mutate(row.domain)}
                      aria-label={`Add ${row.domain} to the cart`}
                    >
                      Add to cart
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {quantity > 0 && (
        <Group>
          <Button component={Link} to={paths['purchase.domain.cart']} variant="light">
            Go to the cart ({quantity})
          </Button>
        </Group>
      )}
    </Stack>
  );
}
