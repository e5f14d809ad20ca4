import { BillingAccountScope } from './BillingAccountScope.tsx';
import { InvoicesPanel } from './InvoicesPanel.tsx';

/** settings/invoices and a team's invoices. */
export default function InvoicesPage() {
  return (
    <BillingAccountScope title="Invoices">
      {(accountId) => <InvoicesPanel accountId={accountId} />}
    </BillingAccountScope>
  );
}
