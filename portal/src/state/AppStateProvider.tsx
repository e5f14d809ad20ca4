import { CONSENT_DEFAULTS, DEFAULT_CURRENCY, STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext.ts';
import { useAccountQuery } from '../data/account-query.ts';
import { useDomainsQuery } from '../data/domains-query.ts';
import { useOperationCostsQuery } from '../data/operation-costs-query.ts';
import { usePlansQuery } from '../data/plans-query.ts';
import { useProfileQuery } from '../data/profile-query.ts';
import { useSessionClaimsQuery } from '../data/session-claims-query.ts';
import { useSubscriptionsQuery } from '../data/subscriptions-query.ts';
import { useMyOrganizationsQuery } from '../data/organizations-query.ts';
import { useAccountFeaturesQuery } from '../data/teams/account-features-query.ts';
import { useMyTeamsQuery } from '../data/teams-query.ts';
import { activeTeam } from '../features/teams/teamMode.ts';
import { useUserId } from '../data/use-user-id.ts';
import { useServices } from '../lib/servicesContext.ts';
import { AppStateContext, buildViewer, type AppState } from './appState.ts';
import { useStoredFlag } from './storedFlag.ts';

const NO_COSTS = {};
const NO_DOMAINS: AppState['domains'] = [];

/**
 * Loads the shared state once for the whole shell. The queries behind it are refreshed by
 * their keys: a sign-in changes the user scope, a team switch or an action calls
 * refreshAppState, and a sign-out clears the cache.
 */
export function AppStateProvider({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const { config, flash } = useServices();
  const profile = useProfileQuery();
  const accountId = profile.data?.personal_account_id;
  const account = useAccountQuery(accountId);
  const subscriptions = useSubscriptionsQuery(accountId);
  const plans = usePlansQuery();
  const teams = useMyTeamsQuery();
  const organizations = useMyOrganizationsQuery();
  // The team worked in, by the same rule as the viewer's (teams allowed is settled there).
  const modeTeam =
    profile.data && teams.data
      ? activeTeam({
          loggedIn: true,
          stored: profile.data.team_mode,
          teamsAllowed: true,
          teams: teams.data,
          currentTeamId: profile.data.current_team_id,
        })
      : null;
  const modeTeamId = modeTeam?.id ?? null;
  const teamFeatures = useAccountFeaturesQuery(modeTeam?.accountId ?? null);
  const claims = useSessionClaimsQuery();
  const domains = useDomainsQuery();
  const costs = useOperationCostsQuery();
  const flashMessages = useSyncExternalStore(flash.subscribe, flash.getSnapshot);
  const [cookiesAccepted] = useStoredFlag(STORAGE_KEYS.cookiesAccepted, CONSENT_DEFAULTS.cookies);
  const [ccpaAccepted] = useStoredFlag(STORAGE_KEYS.ccpaAccepted, CONSENT_DEFAULTS.ccpa);

  const userQueries = [profile, account, subscriptions, plans, teams, organizations, claims];
  // The account's user only once the session may act for it (see useUserId).
  const user = useUserId() != null ? auth.user : null;
  const viewer = useMemo(() => {
    if (!user || !profile.data || !account.data || !subscriptions.data || !plans.data) return null;
    if (!teams.data || !organizations.data || !claims.data) return null;
    // In team mode the team's features apply: wait for them (a failure falls back to the user's).
    if (modeTeamId != null && teamFeatures.isPending) return null;
    return buildViewer({
      userId: user.id,
      email: user.email ?? profile.data.email,
      emailConfirmedAt: user.email_confirmed_at ?? null,
      profile: profile.data,
      account: account.data,
      subscriptions: subscriptions.data,
      plans: plans.data,
      teams: teams.data,
      organizations: organizations.data,
      teamFeatures: teamFeatures.data ?? null,
      claims: claims.data,
      now: new Date(),
    });
  }, [
    user,
    profile.data,
    account.data,
    subscriptions.data,
    plans.data,
    teams.data,
    organizations.data,
    modeTeamId,
    teamFeatures.isPending,
    teamFeatures.data,
    claims.data,
  ]);

  let status: AppState['status'];
  if (auth.status === 'loading') status = 'loading';
  else if (auth.status === 'guest') status = 'ready';
  else if (userQueries.some((query) => query.isError)) status = 'error';
  else status = viewer ? 'ready' : 'loading';

  // Which user queries failed, as a key: retry is rebuilt when that changes, not every render.
  const failed = userQueries.map((query) => (query.isError ? 1 : 0)).join('');
  const retry = useCallback(
    () => {
      for (const query of userQueries) if (query.isError) void query.refetch();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each refetch is stable; `failed` says which to call
    [failed],
  );

  // One value while nothing in it changed: every query's progress re-renders this provider,
  // and a new value would re-render every consumer (the navigation, the guards, the page) with
  // it, a dozen times while a signed-in page loads.
  const domainList = domains.data ?? NO_DOMAINS;
  const operationCosts = costs.data ?? NO_COSTS;
  const state = useMemo<AppState>(
    () => ({
      status,
      retry,
      locale: config.locale,
      locales: config.locales,
      currency: viewer?.currency ?? DEFAULT_CURRENCY,
      domains: domainList,
      antiRobot: config.antiRobot,
      privacy: {
        cookiesAccepted,
        ccpaAccepted,
        // Ads (and so their consent provider) are for users who are not subscribed.
        adConsentEnabled: config.adsEnabled && !viewer?.subscribed,
      },
      surveyEnabled: viewer != null && viewer.surveyEnabled && !viewer.pastDue,
      teamsAllowed: viewer?.teamsAllowed ?? false,
      impersonated: viewer?.impersonated ?? false,
      flashMessages,
      operationCosts,
      viewer,
    }),
    [
      status,
      retry,
      config,
      viewer,
      domainList,
      cookiesAccepted,
      ccpaAccepted,
      flashMessages,
      operationCosts,
    ],
  );
  return <AppStateContext value={state}>{children}</AppStateContext>;
}
