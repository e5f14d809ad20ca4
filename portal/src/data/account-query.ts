import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { accountKeys } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

export type Account = Pick<Row<'accounts'>, 'id' | 'kind' | 'name' | 'features'>;

export async function fetchAccount(supabase: PortalSupabase, accountId: string): Promise<Account> {
  return unwrap(
    await supabase.from('accounts').select('id, kind, name, features').eq('id', accountId).single(),
  );
}

/** The query behind useAccountQuery, also asked from the entry (state/prefetchAppState.ts). */
export function accountQuery(
  supabase: PortalSupabase,
  userId: string | null,
  accountId: string | null | undefined,
) {
  return queryOptions({
    queryKey: accountKeys.detail(userId ?? '', accountId ?? ''),
    queryFn: () => fetchAccount(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

/** One account the user belongs to (their personal workspace, for the shell). */
export function useAccountQuery(accountId: string | null | undefined) {
  return useQuery(accountQuery(useSupabase(), useUserId(), accountId));
}
