import { BillingAccountScope } from './BillingAccountScope.tsx';
import { PaymentMethodPanel } from './PaymentMethodPanel.tsx';

/** settings/payment-method, a team's payment-method and an organization's settings/payment. */
export default function PaymentMethodPage() {
  return (
    <BillingAccountScope title="Payment method">
      {(accountId, returnPath) => (
        <PaymentMethodPanel accountId={accountId} returnPath={returnPath} />
      )}
    </BillingAccountScope>
  );
}
