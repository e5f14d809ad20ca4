import { useMutation } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';

/**
 * The billing function's document calls: open the provider's page to replace the card (the
 * spec's GET settings/payment-method, whose data feeds a payment-method update checkout), pay
 * a past-due invoice on the provider's hosted invoice page, and download an invoice's PDF.
 */

export interface ProviderPage {
  /** 1: Stripe's hosted page; 2: our /paddle/payment page, which opens Paddle's overlay. */
  billing_type: 1 | 2;
  transaction_id: string;
  payment_url: string;
}

export async function paymentMethodCheckout(
  supabase: PortalSupabase,
  accountId: string | null,
  returnPath: string,
  billingType?: 1 | 2,
): Promise<ProviderPage> {
  const query = new URLSearchParams({ return_path: returnPath });
  if (accountId) query.set('account_id', accountId);
  if (billingType) query.set('billing_type', String(billingType));
  const { data, error } = await supabase.functions.invoke<{ data: ProviderPage }>(
    `billing/settings/payment-method?${query}`,
    { method: 'GET' },
  );
  if (error) throw error;
  return data!.data;
}

export function usePaymentMethodCheckoutMutation() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: ({ accountId, returnPath }: { accountId: string; returnPath: string }) =>
      paymentMethodCheckout(supabase, accountId, returnPath),
  });
}

export function usePastDuePaymentMutation() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (accountId: string): Promise<ProviderPage> => {
      const { data, error } = await supabase.functions.invoke<{ data: ProviderPage }>(
        'billing/settings/subscription/pay',
        { method: 'POST', body: { account_id: accountId } },
      );
      if (error) throw error;
      return data!.data;
    },
  });
}

/** The invoice's PDF as a file the browser saves. */
export async function downloadInvoicePdf(
  supabase: PortalSupabase,
  invoiceId: string,
  fileName: string,
): Promise<void> {
  const { data, error } = await supabase.functions.invoke<Blob>(
    `billing/invoices/${invoiceId}/pdf`,
    {
      method: 'GET',
    },
  );
  if (error) throw error;
  const url = URL.createObjectURL(data!);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useInvoicePdfDownload() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: ({ invoiceId, fileName }: { invoiceId: string; fileName: string }) =>
      downloadInvoicePdf(supabase, invoiceId, fileName),
  });
}
