import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { apiTokenKeys } from './keys.ts';

/** A token as its owners see it: never the hash (nor, after creation, the secret). */
export type ApiTokenRow = Pick<
  Row<'api_tokens'>,
  'id' | 'name' | 'token_prefix' | 'abilities' | 'created_at' | 'last_used_at' | 'expires_at'
>;

const COLUMNS = 'id, name, token_prefix, abilities, created_at, last_used_at, expires_at';

/** The account's tokens, newest first (the API managers' read policy decides). */
export async function fetchApiTokens(
  supabase: PortalSupabase,
  accountId: string,
): Promise<ApiTokenRow[]> {
  return unwrap(
    await supabase
      .from('api_tokens')
      .select(COLUMNS)
      .eq('account_id', accountId)
      .order('created_at', { ascending: false }),
  );
}

export function useApiTokensQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: apiTokenKeys.list(userId ?? '', accountId ?? ''),
    queryFn: () => fetchApiTokens(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}
