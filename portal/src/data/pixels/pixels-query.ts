import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { pixelKeys } from './keys.ts';

export type PixelRow = Pick<Row<'pixels'>, 'id' | 'provider' | 'pixel_id' | 'name' | 'created_at'>;

/** An account's pixels, oldest first (the table's policies decide who may read them). */
export async function fetchPixels(
  supabase: PortalSupabase,
  accountId: string,
): Promise<PixelRow[]> {
  return unwrap(
    await supabase
      .from('pixels')
      .select('id, provider, pixel_id, name, created_at')
      .eq('account_id', accountId)
      .order('created_at'),
  );
}

export function usePixelsQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: pixelKeys.account(userId ?? '', accountId ?? ''),
    queryFn: () => fetchPixels(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}
