import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { billingDocumentKeys } from './keys.ts';

export interface InvoiceRow {
  id: string;
  number: string | null;
  amount: number;
  currency: string | null;
  status: string;
  billing_type: number;
  issued_at: string;
  paid_at: string | null;
}

/** The account's invoices, newest first (RLS: billing managers and staff). */
export function useInvoicesQuery(accountId: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: billingDocumentKeys.invoices(userId ?? '', accountId ?? ''),
    enabled: userId != null && accountId != null,
    queryFn: async (): Promise<InvoiceRow[]> => {
      const { data, error } = await supabase
        .from('invoices')
        .select('id, number, amount, currency, status, billing_type, issued_at, paid_at')
        .eq('account_id', accountId!)
        .order('issued_at', { ascending: false })
        .limit(100);
      if (error) throw error;
      return data;
    },
  });
}
