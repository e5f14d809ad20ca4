import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useBillingCustomerQuery } from '../../data/billing-documents/billing-customer-query.ts';
import { usePaymentMethodCheckoutMutation } from '../../data/billing-documents/billing-documents-calls.ts';

/** Before the redirect: the card's sync time, so the return can wait for the next one. */
const SYNCED_KEY = 'paymentMethodSyncedAt';

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

const countryName = (code: string) =>
  new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;

/**
 * The card an account's plan is paid with (type, last four, expiry, country) and "Update payment
 * method", which opens the provider's page; back from it (`session_id`), the panel waits for the
 * webhook to record the new card. One panel for the user's, a team's and an organization's page.
 */
export function PaymentMethodPanel({
  accountId,
  returnPath,
}: {
  accountId: string;
  returnPath: string;
}) {
  const [search] = useSearchParams();
  const returned = search.get('session_id') != null;
  const [before] = useState(() =>
    returned ? (sessionStorage.getItem(SYNCED_KEY) ?? '') : undefined,
  );
  const customer = useBillingCustomerQuery(
    accountId,
    before === undefined ? undefined : before === '' ? null : before,
  );
  const checkout = usePaymentMethodCheckoutMutation();

  const update = async () => {
    try {
      const page = await checkout.mutateAsync({ accountId, returnPath });
      sessionStorage.setItem(SYNCED_KEY, customer.data?.pm_synced_at ?? '');
      window.location.assign(page.payment_url);
    } catch {
      // The global response handler announced the refusal.
    }
  };

  const card = customer.data;
  const waiting = before !== undefined && card != null && (card.pm_synced_at ?? '') === before;
  return (
    <SettingsSection title="Payment method">
      {customer.isPending && <Loader size="sm" />}
      {customer.isError && <Alert color="red" title="The payment method could not be loaded" />}
      {customer.isSuccess && (
        <Stack gap="md">
          {waiting && (
            <Alert color="blue" role="status" icon={<Loader size="xs" />}>
              Saving your new card…
            </Alert>
          )}
          {card?.pm_last_four ? (
            <Stack gap={4} data-testid="payment-method">
              <Text fw={600}>
                {BRANDS[card.pm_type ?? ''] ?? card.pm_type ?? 'Card'} ending in{' '}
                <span data-testid="card-last-four">{card.pm_last_four}</span>
              </Text>
              {card.pm_expiration && <Text size="sm">Expires {card.pm_expiration}</Text>}
              {card.pm_country && <Text size="sm">{countryName(card.pm_country)}</Text>}
            </Stack>
          ) : (
            <Text>No card on file.</Text>
          )}
          {card && (
            <Button w="fit-content" loading={checkout.isPending} onClick={() => void update()}>
              Update payment method
            </Button>
          )}
          {!card && (
            <Text size="sm" c="dimmed">
              A card is saved here when you subscribe to a plan.
            </Text>
          )}
        </Stack>
      )}
    </SettingsSection>
  );
}
