import { href } from '../../routes/paths.ts';

/**
 * Whose subscription a page shows: the signed-in person's, a team's (organization/{org}/team/
 * {team}, `_` for a team outside any organization) or an organization's. One screen serves all
 * three (app-shell 2); this says where its calls go and where its links lead.
 */
export type SubscriptionScope =
  | { kind: 'personal' }
  | { kind: 'team'; org: string; team: string }
  | { kind: 'organization'; org: string };

export const PERSONAL: SubscriptionScope = { kind: 'personal' };

/** The billing function's path for the scope's subscription (app-shell 7's cancel url…). */
export function subscriptionApiPath(scope: SubscriptionScope): string {
  if (scope.kind === 'team')
    return `billing/organization/${encodeURIComponent(scope.org)}/team/${encodeURIComponent(scope.team)}/subscription`;
  if (scope.kind === 'organization')
    return `billing/organization/${encodeURIComponent(scope.org)}/subscription`;
  return 'billing/settings/subscription';
}

/** The key part naming the scope in query keys. */
export function scopeKey(scope: SubscriptionScope): string {
  if (scope.kind === 'team') return `team:${scope.org}/${scope.team}`;
  if (scope.kind === 'organization') return `organization:${scope.org}`;
  return 'personal';
}

export interface SubscriptionPagePaths {
  subscription: string;
  cancel: string;
  update: (plan: string, interval: string) => string;
  /** Where an upgrade waits for the provider; the personal one only (app-shell 2). */
  verification: (plan: string, interval: string) => string;
  paymentMethod: string;
}

export function subscriptionPaths(scope: SubscriptionScope): SubscriptionPagePaths {
  const verification = (plan: string, interval: string) =>
    href(
      'settings.subscription.update.verification',
      {},
      { subscription: plan, interval, scope: scopeKey(scope) },
    );
  if (scope.kind === 'team') {
    const params = { org: scope.org, team: scope.team };
    return {
      subscription: href('team.subscription', params),
      cancel: href('team.subscription.cancel', params),
      update: (plan, interval) =>
        href('team.subscription.update', { ...params, subscription: plan, interval }),
      verification,
      paymentMethod: href('team.paymentMethod', params),
    };
  }
  if (scope.kind === 'organization') {
    const params = { org: scope.org };
    return {
      subscription: href('org.settings.subscription', params),
      cancel: href('org.settings.subscription.cancel', params),
      update: (plan, interval) =>
        href('org.settings.subscription.update', { ...params, subscription: plan, interval }),
      verification,
      paymentMethod: href('org.settings.payment', params),
    };
  }
  return {
    subscription: href('settings.subscription'),
    cancel: href('settings.subscription.cancel'),
    update: (plan, interval) =>
      href('settings.subscription.update', { subscription: plan, interval }),
    verification,
    paymentMethod: href('settings.paymentMethod'),
  };
}

/** The scope a verification page was sent for (its `scope` query parameter). */
export function scopeFromKey(key: string | null): SubscriptionScope {
  const team = /^team:([^/]+)\/(.+)$/.exec(key ?? '');
  if (team) return { kind: 'team', org: team[1]!, team: team[2]! };
  const organization = /^organization:(.+)$/.exec(key ?? '');
  if (organization) return { kind: 'organization', org: organization[1]! };
  return PERSONAL;
}
