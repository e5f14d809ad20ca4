import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { profileKeys } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

const PROFILE_COLUMNS =
  'id, email, name, photo_url, is_developer, is_survey_enabled, personal_account_id, current_team_id, team_mode, preview_features';

export type Profile = Pick<
  Row<'profiles'>,
  | 'id'
  | 'email'
  | 'name'
  | 'photo_url'
  | 'is_developer'
  | 'is_survey_enabled'
  | 'personal_account_id'
  | 'current_team_id'
  | 'team_mode'
  | 'preview_features'
>;

export async function fetchProfile(supabase: PortalSupabase, userId: string): Promise<Profile> {
  return unwrap(await supabase.from('profiles').select(PROFILE_COLUMNS).eq('id', userId).single());
}

/** The profile's query, for the hook and for the entry's first requests (firstRequests.ts). */
export function profileQuery(supabase: PortalSupabase, userId: string | null) {
  return queryOptions({
    queryKey: profileKeys.detail(userId ?? ''),
    queryFn: () => fetchProfile(supabase, userId!),
    enabled: userId != null,
  });
}

export function useProfileQuery() {
  return useQuery(profileQuery(useSupabase(), useUserId()));
}
