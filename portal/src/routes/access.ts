import { MESSAGES } from '@shortlane/shared/messages.ts';
import { pastDueRedirect } from '@shortlane/shared/subscriptions.ts';
import type { AuthStatus } from '../auth/AuthContext.ts';
import type { AppState } from '../state/appState.ts';
import {
  href,
  loginPathFor,
  paths,
  RETURN_PARAM,
  safeReturnPath,
  type RouteName,
} from './paths.ts';

/**
 * The navigation guards of app-shell 2, 4 and 6. Every route lists the ones it needs; the
 * past-due redirect applies to every /app route a signed-in user opens.
 */
export const GUARDS = ['guest', 'login', 'verified', 'teams', 'teamExists', 'developer'] as const;
export type Guard = (typeof GUARDS)[number];

export type AccessDecision =
  | { kind: 'allow' }
  /** Not known yet (session, account or team still loading). */
  | { kind: 'wait' }
  /** The account could not be loaded; the page offers to try again. */
  | { kind: 'error' }
  | { kind: 'redirect'; to: string; notice?: string };

export interface AccessInput {
  route: {
    name: RouteName;
    guards: readonly Guard[];
    /** Routes outside /app (previews, tax form, payment page) are not the app's to restrict. */
    outsidePrefix?: boolean;
  };
  authStatus: AuthStatus;
  state: Pick<AppState, 'status' | 'viewer'>;
  /** Where the user is going: a path with its query string. */
  target: string;
  /** For `teamExists`: whether the route's team was found. */
  team?: 'loading' | 'found' | 'missing';
}

const allow: AccessDecision = { kind: 'allow' };
const wait: AccessDecision = { kind: 'wait' };

function redirect(to: string, notice?: string): AccessDecision {
  return notice ? { kind: 'redirect', to, notice } : { kind: 'redirect', to };
}

export function decideAccess({
  route,
  authStatus,
  state,
  target,
  team,
}: AccessInput): AccessDecision {
  const { guards } = route;
  if (authStatus === 'loading') return wait;

  // Guests only: a signed-in user goes home, or on to the page they logged in for.
  if (guards.includes('guest')) {
    if (authStatus === 'guest') return allow;
    const returnTo = new URLSearchParams(target.split('?')[1] ?? '').get(RETURN_PARAM);
    return redirect(safeReturnPath(returnTo) ?? paths.homepage);
  }

  if (authStatus === 'guest') {
    const needsLogin = guards.some((guard) => guard !== 'guest');
    return needsLogin ? redirect(loginPathFor(target)) : allow;
  }

  if (state.status === 'loading') return wait;
  const viewer = state.viewer;
  if (state.status === 'error' || viewer == null) return { kind: 'error' };

  if (!route.outsidePrefix) {
    const pastDue = pastDueRedirect(viewer.subscriber, route.name);
    if (pastDue != null) return redirect(paths[pastDue]);
  }
  if (guards.includes('verified') && !viewer.verifiedOrSubscribed) {
    return redirect(href('email_verify'));
  }
  if (guards.includes('developer') && !viewer.isDeveloper) return redirect(paths.homepage);
  if (guards.includes('teams') && !viewer.teamsAllowed) return redirect(paths.homepage);
  if (guards.includes('teamExists')) {
    if (team === 'missing') return redirect(paths['settings.teams'], MESSAGES.unknownTeam);
    if (team !== 'found') return wait;
  }
  return allow;
}
