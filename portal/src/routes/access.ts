import { MESSAGES } from '@shortlane/shared/messages.ts';
import { pastDueRedirect } from '@shortlane/shared/subscriptions.ts';
import type { AuthStatus } from '../auth/AuthContext.ts';
import type { AppState, Viewer } from '../state/appState.ts';
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
export const GUARDS = [
  'guest',
  'login',
  'verified',
  'teams',
  'teamExists',
  'developer',
  /** The organization pages: staff, the preview feature, or belonging to an organization. */
  'organizations',
  /** login/2FA/*: only while a password login still owes its TOTP or backup code. */
  'secondFactor',
  /** The past-due page (app-shell 4): only for a user whose subscription is past due. */
  'pastDue',
] as const;
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
  /**
   * Signed in with the password while a verified TOTP factor still wants its code; null while
   * the session is still being read (undefined: not tracked, as none).
   */
  secondFactorDue?: boolean | null;
}

const allow: AccessDecision = { kind: 'allow' };
const wait: AccessDecision = { kind: 'wait' };

function redirect(to: string, notice?: string): AccessDecision {
  return notice ? { kind: 'redirect', to, notice } : { kind: 'redirect', to };
}

/** Where `target` asks to go after login: its own `to` on guest pages, else itself. */
function returnPathOf(route: AccessInput['route'], target: string): string | null {
  const ownsReturn = route.guards.includes('guest') || route.guards.includes('secondFactor');
  if (!ownsReturn) return safeReturnPath(target);
  return safeReturnPath(new URLSearchParams(target.split('?')[1] ?? '').get(RETURN_PARAM));
}

/**
 * A session that owes its second factor sees only login/2FA/*, which remember where the user
 * was going. Without one, those pages send a guest to log in and a signed-in user onwards.
 */
function decideSecondFactor(input: AccessInput): AccessDecision | null {
  const { route, authStatus, target, secondFactorDue } = input;
  if (secondFactorDue === null && authStatus !== 'guest') return wait;
  if (secondFactorDue && !route.outsidePrefix) {
    if (route.guards.includes('secondFactor')) return allow;
    const returnTo = returnPathOf(route, target);
    return redirect(href('login.2fa.verify', null, { [RETURN_PARAM]: returnTo }));
  }
  if (!route.guards.includes('secondFactor')) return null;
  const returnTo = returnPathOf(route, target);
  if (authStatus === 'guest') return redirect(returnTo ? loginPathFor(returnTo) : paths.login);
  return redirect(returnTo ?? paths.homepage);
}

/**
 * Where "home" leads this viewer: the homepage, or the past-due page for a past-due user (whom
 * the guard sends there from the homepage). A link home uses it so it never loops back.
 */
export function homeRouteFor(viewer: Viewer | null): RouteName {
  return (viewer && pastDueRedirect(viewer.subscriber, 'homepage')) ?? 'homepage';
}

export function decideAccess(input: AccessInput): AccessDecision {
  const { route, authStatus, state, target, team } = input;
  const { guards } = route;
  if (authStatus === 'loading') return wait;
  const secondFactor = decideSecondFactor(input);
  if (secondFactor) return secondFactor;

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
  // Nothing to pay on the past-due page for free, trial or paid-up users: they go home.
  if (guards.includes('pastDue') && !viewer.pastDue) return redirect(paths.homepage);
  if (guards.includes('verified') && !viewer.verifiedOrSubscribed) {
    return redirect(href('email_verify'));
  }
  if (guards.includes('developer') && !viewer.isDeveloper) return redirect(paths.homepage);
  if (guards.includes('organizations') && !viewer.organizationsAllowed) {
    return redirect(paths.homepage);
  }
  if (guards.includes('teams') && !viewer.teamsAllowed) return redirect(paths.homepage);
  if (guards.includes('teamExists')) {
    if (team === 'missing') return redirect(paths['settings.teams'], MESSAGES.unknownTeam);
    if (team !== 'found') return wait;
  }
  return allow;
}
