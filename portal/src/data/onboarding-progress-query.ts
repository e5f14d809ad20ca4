import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { onboardingKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** The first steps of the get-started checklist, each taken or not (onboarding_progress). */
export interface OnboardingProgress {
  linkCreated: boolean;
  clickReceived: boolean;
  domainAdded: boolean;
  twoFactorEnabled: boolean;
  teamInvited: boolean;
}

export async function fetchOnboardingProgress(
  supabase: PortalSupabase,
): Promise<OnboardingProgress> {
  const rows = unwrap(await supabase.rpc('onboarding_progress'));
  const row = rows[0];
  if (!row) throw new Error('onboarding_progress answered no row.');
  return {
    linkCreated: row.link_created,
    clickReceived: row.click_received,
    domainAdded: row.domain_added,
    twoFactorEnabled: row.two_factor_enabled,
    teamInvited: row.team_invited,
  };
}

export function useOnboardingProgressQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: onboardingKeys.progress(userId ?? ''),
    queryFn: () => fetchOnboardingProgress(supabase),
    enabled: userId != null,
    // The steps are taken on other pages: coming back to the list asks again.
    refetchOnMount: 'always',
  });
}
