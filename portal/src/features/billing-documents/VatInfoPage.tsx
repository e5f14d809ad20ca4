import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  useBillingCustomerQuery,
  type BillingCustomer,
} from '../../data/billing-documents/billing-customer-query.ts';
import { billingDocumentKeys } from '../../data/billing-documents/keys.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { formErrorsFromError } from '../../lib/forms.ts';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { accountFromVatInfoToken } from './vatInfoToken.ts';

const TAX_ID_TYPES = [
  { value: 'eu_vat', label: 'EU VAT number' },
  { value: 'gb_vat', label: 'UK VAT number' },
  { value: 'ch_vat', label: 'Swiss VAT number' },
  { value: 'no_vat', label: 'Norwegian VAT number' },
  { value: 'us_ein', label: 'US EIN' },
  { value: 'au_abn', label: 'Australian ABN' },
  { value: 'ca_bn', label: 'Canadian BN' },
];

interface Values {
  name: string;
  tax_id_type: string | null;
  tax_id: string;
  line1: string;
  line2: string;
  postal_code: string;
  city: string;
  country: string;
}

/** Whether the account's current plan asks for a billing address on its invoices. */
function useForcesBillingAddress(accountId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...billingDocumentKeys.all(userId ?? '', accountId), 'force-billing-address'],
    enabled: userId != null,
    queryFn: async () => {
      const { data, error } = await supabase
        .from('subscriptions')
        .select('plan:plans(force_billing_address)')
        .eq('account_id', accountId)
        .eq('type', 'default')
        .is('ends_at', null)
        .limit(1);
      if (error) throw error;
      return data[0]?.plan?.force_billing_address === true;
    },
  });
}

function VatInfoForm({ accountId, customer }: { accountId: string; customer: BillingCustomer }) {
  const supabase = useSupabase();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const userId = useUserId();
  const forced = useForcesBillingAddress(accountId);
  const [busy, setBusy] = useState(false);
  const address = customer.billing_address ?? {};
  const form = useForm<Values>({
    initialValues: {
      name: '',
      tax_id_type: customer.tax_id_type,
      tax_id: customer.tax_id ?? '',
      line1: address.line1 ?? '',
      line2: address.line2 ?? '',
      postal_code: address.postal_code ?? '',
      city: address.city ?? '',
      country: address.country ?? '',
    },
    validate: {
      line1: (value) => (value.trim() ? null : 'The street address is required.'),
      country: (value) => (/^[A-Za-z]{2}$/.test(value.trim()) ? null : 'Choose a country.'),
      tax_id: (value, values) =>
        (values.tax_id_type == null) !== (value.trim() === '')
          ? 'Give both the kind of tax id and its number, or neither.'
          : null,
    },
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const { error } = await supabase.functions.invoke('billing/vatinfo', {
        method: 'PUT',
        body: {
          account_id: accountId,
          billing_type: customer.billing_type,
          name: values.name || undefined,
          tax_id_type: values.tax_id_type ?? undefined,
          tax_id: values.tax_id || undefined,
          address: {
            line1: values.line1,
            line2: values.line2,
            postal_code: values.postal_code,
            city: values.city,
            country: values.country.toUpperCase(),
          },
        },
      });
      if (error) throw error;
      if (userId)
        await queryClient.invalidateQueries({
          queryKey: billingDocumentKeys.customer(userId, accountId),
        });
      notify({ message: 'Your tax details were saved.', durationMs: 5_000, tone: 'success' });
    } catch (error) {
      form.setErrors(await formErrorsFromError(error));
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Tax details">
      <Stack gap="sm">
        {forced.data && (
          <Alert color="blue">Your plan requires a billing address on its invoices.</Alert>
        )}
        <TextInput label="Company or name on invoices" {...form.getInputProps('name')} />
        <Group grow align="flex-start">
          <Select
            label="Kind of tax id"
            data={TAX_ID_TYPES}
            clearable
            {...form.getInputProps('tax_id_type')}
          />
          <TextInput label="Tax id" {...form.getInputProps('tax_id')} />
        </Group>
        <TextInput label="Street address" required {...form.getInputProps('line1')} />
        <TextInput label="Address line 2" {...form.getInputProps('line2')} />
        <Group grow align="flex-start">
          <TextInput label="Postal code" {...form.getInputProps('postal_code')} />
          <TextInput label="City" {...form.getInputProps('city')} />
          <TextInput
            label="Country code"
            description="Two letters, e.g. DE"
            maxLength={2}
            required
            {...form.getInputProps('country')}
          />
        </Group>
        <Group>
          <Button type="submit" loading={busy}>
            Save tax details
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * /user/vatinfo/{encrypted}: the tax id and billing address the provider puts on an account's
 * invoices (sent to its Stripe customer). The link names the account; who may change it is the
 * billing function's and RLS's decision (the account's billing managers), so a guest is asked to
 * log in first.
 */
export default function VatInfoPage() {
  usePageTitle('Tax details');
  const { encrypted = '' } = useParams();
  const { pathname } = useLocation();
  const userId = useUserId();
  const profile = useProfileQuery();
  const accountId = accountFromVatInfoToken(encrypted) ?? profile.data?.personal_account_id;
  const customer = useBillingCustomerQuery(accountId);

  let body;
  if (!userId)
    body = (
      <Text>
        <Anchor component={Link} to={href('login', undefined, { to: pathname })}>
          Log in
        </Anchor>{' '}
        to add your tax details.
      </Text>
    );
  else if (customer.isPending) body = <Loader size="sm" />;
  else if (customer.isError) body = <Alert color="red" title="Your details could not be loaded" />;
  else if (!customer.data || !accountId)
    body = <Alert title="No billing account">Tax details are added once you pay for a plan.</Alert>;
  else body = <VatInfoForm accountId={accountId} customer={customer.data} />;

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Tax details</Title>
        {body}
      </Stack>
    </Container>
  );
}
