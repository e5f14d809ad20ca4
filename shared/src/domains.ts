/**
 * Domain options and the custom-alias field of the create form (link-creation 3, 5, 6, 8).
 */
import type { ErrorCode } from './errors.ts';
import { errorMessage } from './errors.ts';
import { MESSAGE_KEYS } from './messages.ts';

export const DOMAIN_TYPES = ['common', 'organization'] as const;
export type DomainType = (typeof DOMAIN_TYPES)[number];

export interface DomainOption {
  domain: string;
  type: DomainType;
  isDisabled: boolean;
  isDeleted: boolean;
  isBlocked: boolean;
  requireEmailVerification: boolean;
  subscribedOnly: boolean;
  allowForGuests: boolean;
  guestCanUseCustomAlias: boolean;
  /** Organization domains only. */
  for_all_teams?: boolean;
  teams?: readonly { slug: string }[];
}

/** Who is choosing: a guest, or a logged-in user with these facts. */
export type DomainViewer =
  | { loggedIn: false }
  | { loggedIn: true; verified: boolean; subscribed: boolean; inOrganization: boolean };

export type DomainLock = Extract<
  ErrorCode,
  'domain_guests_only_logged_in' | 'email_verification' | 'not_subscribed'
>;

/** Why a visible domain cannot be chosen, or null when it can. */
export function domainLock(domain: DomainOption, viewer: DomainViewer): DomainLock | null {
  if (!viewer.loggedIn) return domain.allowForGuests ? null : 'domain_guests_only_logged_in';
  if (domain.requireEmailVerification && !viewer.verified && !viewer.subscribed) {
    return 'email_verification';
  }
  if (domain.subscribedOnly && !viewer.inOrganization && !viewer.subscribed) {
    return 'not_subscribed';
  }
  return null;
}

export function isDomainSelectable(domain: DomainOption, viewer: DomainViewer): boolean {
  return domainLock(domain, viewer) == null;
}

/** Disabled, deleted or blocked domains are hidden. */
export function isDomainHidden(domain: DomainOption): boolean {
  return domain.isDisabled || domain.isDeleted || domain.isBlocked;
}

/** Organization domains show for the selected team unless they apply to all teams. */
export function isDomainForTeam(domain: DomainOption, teamSlug: string | null): boolean {
  if (domain.type !== 'organization' || domain.for_all_teams === true) return true;
  return teamSlug != null && (domain.teams ?? []).some((team) => team.slug === teamSlug);
}

export interface DomainChoice {
  option: DomainOption;
  selectable: boolean;
  lock: DomainLock | null;
  /** Tooltip for a locked domain: the spec's sentence, or its message key. */
  tooltip: string | null;
}

/** The domain list of the create form: visible options sorted by domain name. */
export function domainChoices(
  domains: readonly DomainOption[],
  viewer: DomainViewer,
  selectedTeamSlug: string | null = null,
): DomainChoice[] {
  return domains
    .filter((domain) => !isDomainHidden(domain) && isDomainForTeam(domain, selectedTeamSlug))
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .map((option) => {
      const lock = domainLock(option, viewer);
      return { option, selectable: lock == null, lock, tooltip: lock && errorMessage(lock) };
    });
}

export type ResolvedDomain =
  { domain: string; error: null } | { domain: string; error: typeof MESSAGE_KEYS.domainNotFound };

/**
 * The domain the form uses: the preferred one if selectable, else the first selectable one,
 * else the current host with the error 'domain_not_found'.
 */
export function resolveDomain(
  choices: readonly DomainChoice[],
  currentHost: string,
  preferred: string | null = null,
): ResolvedDomain {
  const selectable = choices.filter((choice) => choice.selectable);
  const chosen =
    selectable.find((choice) => choice.option.domain === preferred) ?? selectable[0] ?? null;
  return chosen
    ? { domain: chosen.option.domain, error: null }
    : { domain: currentHost, error: MESSAGE_KEYS.domainNotFound };
}

export type CustomAliasAccess =
  | { enabled: true }
  | {
      enabled: false;
      tooltip: typeof MESSAGE_KEYS.customAliasNotAllowed | typeof MESSAGE_KEYS.emailVerification;
      /** Where clicking the locked field sends the user (named routes), if anywhere. */
      redirect: 'register' | 'email_verify' | null;
    };

/**
 * Custom alias: for logged-in users only if their plan allows it (and not before the e-mail
 * is verified, unless subscribed); for guests only if the chosen domain allows guest aliases.
 */
export function customAliasAccess(input: {
  viewer: DomainViewer;
  planAllowsCustomAlias: boolean;
  domain: DomainOption | null;
}): CustomAliasAccess {
  const { viewer } = input;
  if (!viewer.loggedIn) {
    return input.domain?.guestCanUseCustomAlias === true
      ? { enabled: true }
      : { enabled: false, tooltip: MESSAGE_KEYS.customAliasNotAllowed, redirect: 'register' };
  }
  if (!viewer.verified && !viewer.subscribed) {
    return { enabled: false, tooltip: MESSAGE_KEYS.emailVerification, redirect: 'email_verify' };
  }
  return input.planAllowsCustomAlias
    ? { enabled: true }
    : { enabled: false, tooltip: MESSAGE_KEYS.customAliasNotAllowed, redirect: null };
}

export type AddDomainAccess =
  | { allowed: true }
  | {
      allowed: false;
      message:
        | typeof MESSAGE_KEYS.logInOrRegister
        | typeof MESSAGE_KEYS.emailVerificationCheck
        | typeof MESSAGE_KEYS.notSubscribed;
      redirect: 'register' | 'email_verify' | 'settings.subscription';
    };

/**
 * Add Domain: guests are sent to register, unverified users to verify, non-subscribers to the
 * subscription page; branded domains need a subscription.
 */
export function addDomainAccess(viewer: DomainViewer): AddDomainAccess {
  if (!viewer.loggedIn) {
    return { allowed: false, message: MESSAGE_KEYS.logInOrRegister, redirect: 'register' };
  }
  if (!viewer.verified) {
    return {
      allowed: false,
      message: MESSAGE_KEYS.emailVerificationCheck,
      redirect: 'email_verify',
    };
  }
  if (!viewer.subscribed) {
    return {
      allowed: false,
      message: MESSAGE_KEYS.notSubscribed,
      redirect: 'settings.subscription',
    };
  }
  return { allowed: true };
}
