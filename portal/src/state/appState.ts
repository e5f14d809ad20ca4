import { hasFeature } from '@shortlane/shared/features.ts';
import { normalizeCurrency } from '@shortlane/shared/plans.ts';
import {
  isEmailVerified,
  isPastDue,
  isPastDueTrialUser,
  isSubscribed,
  isVerifiedOrSubscribed,
  pastDueAllowedRoutes,
  type SubscriberFacts,
} from '@shortlane/shared/subscriptions.ts';
import type { Instant } from '@shortlane/shared/time.ts';
import { createContext, useContext } from 'react';
import type { Account } from '../data/account-query.ts';
import type { DomainRow } from '../data/domains-query.ts';
import type { OperationCosts } from '../data/operation-costs-query.ts';
import type { PlanRow } from '../data/plans-query.ts';
import type { Profile } from '../data/profile-query.ts';
import type { SessionClaims } from '../data/session-claims-query.ts';
import type { SubscriptionRow } from '../data/subscriptions-query.ts';
import { STANDALONE_TEAM_ORG, type TeamSummary } from '../data/teams-query.ts';
import type { OrganizationSummary } from '../data/organizations-query.ts';
import { activeTeam, effectiveFeatures } from '../features/teams/teamMode.ts';
import type { AntiRobotConfig } from '../lib/config.ts';
import type { FlashMessage } from './flash.ts';
import { reachesOrganizations } from './organizationAccess.ts';
import { currentAndFuture, personalFeatures, subscriptionFacts } from './subscriberFacts.ts';

/** The signed-in user as the shell sees them: who they are and what their plan allows. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  /** The profile photo's public address (settings/profile), or null for none. */
  photoUrl: string | null;
  isDeveloper: boolean;
  subscriber: SubscriberFacts;
  emailVerified: boolean;
  subscribed: boolean;
  verifiedOrSubscribed: boolean;
  pastDue: boolean;
  pastDueTrial: boolean;
  /** The route names a past-due user may open; null when no restriction applies. */
  pastDueAllowedRoutes: readonly string[] | null;
  /** The features that apply: the team's in team mode, else the personal account's. */
  features: readonly string[];
  /** The personal account's features (the plan's and the account's own). */
  personalFeatures: readonly string[];
  teamsAllowed: boolean;
  teams: readonly TeamSummary[];
  teamMode: boolean;
  /** The team worked in while team mode is on. */
  currentTeam: TeamSummary | null;
  /** The organization pages are open to this user (state/organizationAccess.ts). */
  organizationsAllowed: boolean;
  impersonated: boolean;
  /** The profile's survey switch (the browser's skip flag is applied by the banner). */
  surveyEnabled: boolean;
  currency: string;
}

/** The spec's shared state (app-shell 2 and 7: "GET state"), loaded once and kept fresh. */
export interface AppState {
  /** `loading` until the session and, for a user, their account are known. */
  status: 'loading' | 'ready' | 'error';
  /** Fetches what failed again. */
  retry: () => void;
  locale: string;
  locales: readonly string[];
  currency: string;
  domains: readonly DomainRow[];
  antiRobot: AntiRobotConfig;
  privacy: {
    /** GDPR: the cookie notice was accepted. */
    cookiesAccepted: boolean;
    /** CCPA: consent to sharing stands (the spec's default: true). */
    ccpaAccepted: boolean;
    /** The ad-consent provider (footer's Privacy Manager): ads are shown to this viewer. */
    adConsentEnabled: boolean;
  };
  surveyEnabled: boolean;
  teamsAllowed: boolean;
  impersonated: boolean;
  flashMessages: readonly FlashMessage[];
  operationCosts: OperationCosts;
  viewer: Viewer | null;
}

export interface ViewerSources {
  userId: string;
  email: string;
  emailConfirmedAt: string | null;
  profile: Profile;
  account: Account | null;
  subscriptions: readonly SubscriptionRow[];
  plans: readonly PlanRow[];
  teams: readonly TeamSummary[];
  /** Organizations the user owns or is an organization user of. */
  organizations: readonly OrganizationSummary[];
  /** The current team account's features (public.account_features), when in team mode. */
  teamFeatures: readonly string[] | null;
  claims: SessionClaims;
  now: Instant;
}

export function buildViewer(sources: ViewerSources): Viewer {
  const { current, future } = currentAndFuture(sources.subscriptions, sources.now);
  const subscriber: SubscriberFacts = {
    email_verified_at: sources.emailConfirmedAt,
    subscriptions: {
      current: current && subscriptionFacts(current),
      future: future && subscriptionFacts(future),
    },
  };
  const personal = personalFeatures(sources.account, current, sources.plans);
  // support_teams is the user's, whatever team they work in (app-shell 6).
  const teamsAllowed = hasFeature({ features: personal }, 'support_teams');
  const currentTeam = activeTeam({
    loggedIn: true,
    stored: sources.profile.team_mode,
    teamsAllowed,
    teams: sources.teams,
    currentTeamId: sources.profile.current_team_id,
  });
  return {
    id: sources.userId,
    email: sources.email,
    name: sources.profile.name || sources.email.split('@')[0] || sources.email,
    photoUrl: sources.profile.photo_url,
    isDeveloper: sources.profile.is_developer,
    subscriber,
    emailVerified: isEmailVerified(subscriber),
    subscribed: isSubscribed(subscriber),
    verifiedOrSubscribed: isVerifiedOrSubscribed(subscriber),
    pastDue:
      subscriber.subscriptions.current != null && isPastDue(subscriber.subscriptions.current),
    pastDueTrial: isPastDueTrialUser(subscriber),
    pastDueAllowedRoutes: pastDueAllowedRoutes(subscriber),
    features: effectiveFeatures(currentTeam, sources.teamFeatures, personal),
    personalFeatures: personal,
    teamsAllowed,
    teams: sources.teams,
    teamMode: currentTeam != null,
    currentTeam,
    organizationsAllowed: reachesOrganizations({
      isDeveloper: sources.profile.is_developer,
      previewFeatures: sources.profile.preview_features,
      organizationCount: sources.organizations.length,
      inOrganizationTeam: sources.teams.some((team) => team.orgSlug !== STANDALONE_TEAM_ORG),
    }),
    impersonated: sources.claims.impersonator != null,
    surveyEnabled: sources.profile.is_survey_enabled,
    currency: normalizeCurrency(current?.currency),
  };
}

export const AppStateContext = createContext<AppState | null>(null);

export function useAppState(): AppState {
  const state = useContext(AppStateContext);
  if (!state) throw new Error('useAppState() needs an <AppStateProvider> above it.');
  return state;
}

/** The signed-in viewer once known; null for guests and while loading. */
export function useViewer(): Viewer | null {
  return useAppState().viewer;
}
