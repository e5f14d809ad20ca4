import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { userScope } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * The UTM presets of one account (the builder's preset list). Kept beside its fetcher rather
 * than in keys.ts: nothing else invalidates it but the preset save.
 */
export const utmPresetKeys = {
  all: (userId: string) => [...userScope(userId), 'utm-presets'] as const,
  list: (userId: string, accountId: string) => [...utmPresetKeys.all(userId), accountId] as const,
};

const PRESET_COLUMNS = 'id, name, utm_source, utm_medium, utm_campaign, utm_term, utm_content';

export type UtmPresetRow = Pick<
  Row<'utm_presets'>,
  'id' | 'name' | 'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_term' | 'utm_content'
>;

export async function fetchUtmPresets(
  supabase: PortalSupabase,
  accountId: string,
): Promise<UtmPresetRow[]> {
  return unwrap(
    await supabase
      .from('utm_presets')
      .select(PRESET_COLUMNS)
      .eq('account_id', accountId)
      .order('name'),
  );
}

/** The account's presets; idle for a guest or while the account is not known yet. */
export function useUtmPresetsQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: utmPresetKeys.list(userId ?? '', accountId ?? ''),
    queryFn: () => fetchUtmPresets(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}
