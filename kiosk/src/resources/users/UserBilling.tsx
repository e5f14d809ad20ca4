import { Box, Stack, Typography } from '@mui/material';
import {
  DataTable,
  DateField,
  FunctionField,
  ReferenceManyField,
  useRecordContext,
  type RaRecord,
} from 'react-admin';
import { ActionButton } from '../../components/ActionButton.tsx';
import { formatMoney } from '../../components/money.ts';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';
import {
  orderPaymentLabel,
  refundable,
  refundConsequences,
  type OrderPayment,
} from './orderPayment.ts';

const money = (record: RaRecord) =>
  formatMoney(record.amount as number, (record.currency as string | null) ?? 'USD');

/** Ends a paid subscription now at its provider, Stripe or Paddle (kiosk-billing; audited). */
function CancelSubscriptionButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record || (record.billing_type !== 1 && record.billing_type !== 2)) return null;
  const ended = record.ends_at != null && new Date(record.ends_at as string) <= new Date();
  return (
    <ActionButton
      label="Cancel now"
      color="error"
      disabled={ended}
      confirm={{
        title: `Cancel the ${String(record.name)} subscription now?`,
        content: `The plan ends at once at ${record.billing_type === 2 ? 'Paddle' : 'Stripe'}; nothing is refunded.`,
      }}
      run={async () => {
        await dataProvider.callFunction('kiosk-billing', {
          action: 'cancel_subscription',
          subscription_id: record.id,
        });
        return { message: 'kiosk.billing.cancelled' };
      }}
    />
  );
}

/**
 * Refunds a paid order in full (kiosk-billing; audited). Stripe refunds at once (51); Paddle
 * reviews a refund first: the order says so until Paddle approves it (then 51).
 */
function RefundOrderButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record || (record.billing_type !== 1 && record.billing_type !== 2)) return null;
  const order = record as RaRecord & OrderPayment;
  return (
    <ActionButton
      label="Refund"
      disabled={!refundable(order)}
      confirm={{ title: `Refund ${money(record)}?`, content: refundConsequences(order) }}
      run={async () => {
        const answer = await dataProvider.callFunction<{ order?: { status?: number } }>(
          'kiosk-billing',
          { action: 'refund_order', order_id: record.id },
        );
        return {
          message:
            answer.order?.status === 51 ? 'kiosk.billing.refunded' : 'kiosk.billing.refund_pending',
        };
      }}
    />
  );
}

/** user/{userId}'s Billing tab: the personal account's subscriptions, invoices and orders. */
export function UserBilling() {
  return (
    <Stack spacing={3}>
      <Box component="section" aria-label="Subscriptions">
        <Typography variant="h6">Subscriptions</Typography>
        <ReferenceManyField
          reference="subscriptions"
          source="personal_account_id"
          target="account_id"
          sort={{ field: 'created_at', order: 'DESC' }}
          empty={<span>No subscriptions</span>}
        >
          <DataTable bulkActionButtons={false}>
            <DataTable.Col source="name" label="Plan" />
            <DataTable.Col source="interval" />
            <DataTable.Col source="billing_status" label="Status" />
            <DataTable.Col label="Amount" render={money} />
            <DataTable.Col source="period_ends_at" label="Period ends" field={DateField} />
            <DataTable.Col source="ends_at" label="Ends" field={DateField} />
            <DataTable.Col label="Actions">
              <CancelSubscriptionButton />
            </DataTable.Col>
          </DataTable>
        </ReferenceManyField>
      </Box>
      <Box component="section" aria-label="Invoices">
        <Typography variant="h6">Invoices</Typography>
        <ReferenceManyField
          reference="invoices"
          source="personal_account_id"
          target="account_id"
          sort={{ field: 'issued_at', order: 'DESC' }}
          empty={<span>No invoices</span>}
        >
          <DataTable bulkActionButtons={false}>
            <DataTable.Col source="number" />
            <DataTable.Col source="issued_at" label="Date" field={DateField} />
            <DataTable.Col label="Amount" render={money} />
            <DataTable.Col source="status" />
          </DataTable>
        </ReferenceManyField>
      </Box>
      <Box component="section" aria-label="Orders">
        <Typography variant="h6">Orders</Typography>
        <ReferenceManyField
          reference="orders"
          source="personal_account_id"
          target="account_id"
          sort={{ field: 'created_at', order: 'DESC' }}
          empty={<span>No orders</span>}
        >
          <DataTable bulkActionButtons={false}>
            <DataTable.Col source="created_at" label="Date" field={DateField} />
            <DataTable.Col label="Amount" render={money} />
            <DataTable.Col label="Payment">
              <FunctionField
                render={(record: RaRecord) => orderPaymentLabel(record as RaRecord & OrderPayment)}
              />
            </DataTable.Col>
            <DataTable.Col label="Actions">
              <RefundOrderButton />
            </DataTable.Col>
          </DataTable>
        </ReferenceManyField>
      </Box>
    </Stack>
  );
}
