import type { Viewer } from '../../state/appState.ts';
import { homeRouteFor } from '../../routes/access.ts';
import { paths } from '../../routes/paths.ts';

/**
 * What the navigation bar shows (link-creation 2), decided from who is looking. The desktop
 * bar and the mobile menu render the same model; the mobile menu adds its extras.
 */
/** The spec's 'Create TinyURL' button, named for this product. */
export const CREATE_LABEL = 'Create Short Link';

export interface NavModel {
  /** Home as the guards resolve it: the past-due page for a past-due user, else the homepage. */
  logoTo: string;
  /** A past-due trial user sees only the logo and log out. */
  minimal: boolean;
  create: boolean;
  icons: { help: boolean; notifications: boolean; invitations: boolean; cart: boolean };
  /** My URLs is a guest page; Plans, Blog and Features are hidden for subscribers. */
  links: { myUrls: boolean; plans: boolean; blog: boolean; features: boolean };
  signUpAndIn: boolean;
  /**
   * The organizations dropdown (whoever reaches organizations: staff, the preview feature,
   * members), with 'Create Organization' when teams are allowed.
   */
  organizations: { canCreate: boolean } | null;
  user: { name: string; kiosk: boolean; backToMyAccount: boolean } | null;
  /** Team mode's switch (app-shell 4): logged in, teams allowed and at least one team. */
  teamSwitch: boolean;
  logOut: boolean;
  /** The mobile menu's extras: Billing, and the organization items for those who reach them. */
  mobile: { billing: boolean; organizationItems: boolean; helpdesk: boolean };
}

export type NavViewer =
  | { kind: 'guest' }
  /** Password given, TOTP code not yet: nothing of the account is shown (or loaded). */
  | { kind: 'secondFactor' }
  | { kind: 'loading' }
  | { kind: 'user'; viewer: Viewer };

/**
 * A session owing its second factor sees the guest's public pages and log out. Not Create (it
 * would act under the half-open session), My URLs (this browser's guest history), nor Sign Up
 * and Sign In (the user is half-way through signing in).
 */
const SECOND_FACTOR_MODEL: NavModel = {
  logoTo: paths.homepage,
  minimal: false,
  create: false,
  icons: { help: true, notifications: false, invitations: false, cart: false },
  links: { myUrls: false, plans: true, blog: true, features: true },
  signUpAndIn: false,
  organizations: null,
  user: null,
  teamSwitch: false,
  logOut: true,
  mobile: { billing: false, organizationItems: false, helpdesk: false },
};

export function navModel(who: NavViewer): NavModel {
  if (who.kind === 'secondFactor') return SECOND_FACTOR_MODEL;
  if (who.kind !== 'user') {
    const guest = who.kind === 'guest';
    return {
      logoTo: paths.homepage,
      minimal: false,
      create: guest,
      icons: { help: true, notifications: false, invitations: false, cart: false },
      links: { myUrls: guest, plans: true, blog: true, features: true },
      signUpAndIn: guest,
      organizations: null,
      user: null,
      teamSwitch: false,
      logOut: false,
      mobile: { billing: false, organizationItems: false, helpdesk: false },
    };
  }
  const { viewer } = who;
  if (viewer.pastDueTrial) {
    return {
      logoTo: paths[homeRouteFor(viewer)],
      minimal: true,
      create: false,
      icons: { help: false, notifications: false, invitations: false, cart: false },
      links: { myUrls: false, plans: false, blog: false, features: false },
      signUpAndIn: false,
      organizations: null,
      user: null,
      teamSwitch: false,
      logOut: true,
      mobile: { billing: false, organizationItems: false, helpdesk: false },
    };
  }
  const forProspects = !viewer.subscribed;
  return {
    logoTo: paths[homeRouteFor(viewer)],
    minimal: false,
    create: true,
    icons: { help: true, notifications: true, invitations: true, cart: true },
    links: { myUrls: false, plans: forProspects, blog: forProspects, features: forProspects },
    signUpAndIn: false,
    organizations: viewer.organizationsAllowed ? { canCreate: viewer.teamsAllowed } : null,
    user: {
      name: viewer.name,
      kiosk: viewer.isDeveloper,
      backToMyAccount: viewer.impersonated,
    },
    teamSwitch: viewer.teamsAllowed && viewer.teams.length > 0,
    logOut: true,
    // Helpdesk stays with developers (link-creation 2).
    mobile: {
      billing: true,
      organizationItems: viewer.organizationsAllowed,
      helpdesk: viewer.isDeveloper,
    },
  };
}
