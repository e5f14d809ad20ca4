import { Alert, Anchor, Badge, Button, Loader, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useInvoicePdfDownload } from '../../data/billing-documents/billing-documents-calls.ts';
import { useInvoicesQuery } from '../../data/billing-documents/invoices-query.ts';
import { useAppState } from '../../state/appState.ts';
import { href } from '../../routes/paths.ts';
import { formatDate } from '../billing/SubscriptionPage.tsx';
import { vatInfoToken } from './vatInfoToken.ts';

const STATUS_COLOURS: Record<string, string> = {
  paid: 'green',
  open: 'orange',
  refunded: 'gray',
  void: 'gray',
  uncollectible: 'red',
};

/** An account's invoices, newest first, in their own currency, each with its PDF. */
export function InvoicesPanel({ accountId }: { accountId: string }) {
  const { locale } = useAppState();
  const invoices = useInvoicesQuery(accountId);
  const download = useInvoicePdfDownload();

  return (
    <SettingsSection title="Invoices">
      {invoices.isPending && <Loader size="sm" />}
      {invoices.isError && <Alert color="red" title="Your invoices could not be loaded" />}
      {invoices.isSuccess && invoices.data.length === 0 && <Text>No invoices yet.</Text>}
      {invoices.isSuccess && invoices.data.length > 0 && (
        <Table aria-label="Invoices" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Invoice</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Download</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoices.data.map((invoice) => {
              const number = invoice.number ?? invoice.id.slice(0, 8);
              return (
                <Table.Tr key={invoice.id}>
                  <Table.Td>{number}</Table.Td>
                  <Table.Td>{formatDate(invoice.issued_at, locale)}</Table.Td>
                  <Table.Td>
                    {formatMoney(invoice.amount, invoice.currency ?? undefined, locale)}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOURS[invoice.status] ?? 'gray'}>
                      {invoice.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {invoice.billing_type === 1 && (
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={`Download invoice ${number} (PDF)`}
                        loading={download.isPending && download.variables?.invoiceId === invoice.id}
                        onClick={() =>
                          download.mutate({
                            invoiceId: invoice.id,
                            fileName: `Invoice-${number}.pdf`,
                          })
                        }
                      >
                        PDF
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm" mt="md">
        <Anchor component={Link} to={href('user.vatinfo', { encrypted: vatInfoToken(accountId) })}>
          Tax id and billing address
        </Anchor>{' '}
        on your invoices.
      </Text>
    </SettingsSection>
  );
}
