import { useParams, useSearchParams } from 'react-router-dom';
import { scopeFromKey, type SubscriptionScope } from '../../data/subscription/scope.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';

/**
 * The scope a subscription route serves: team.* routes a team's (organization/{org}/team/{team}),
 * org.* routes an organization's, settings.* the person's own; the verification page, which only
 * exists under settings, is told by its `scope` query parameter.
 */
export function useRouteScope(): SubscriptionScope {
  const name = useCurrentRouteName();
  const { org = '', team = '' } = useParams();
  const [query] = useSearchParams();
  if (name.startsWith('team.')) return { kind: 'team', org, team };
  if (name.startsWith('org.')) return { kind: 'organization', org };
  if (name === 'settings.subscription.update.verification') return scopeFromKey(query.get('scope'));
  return { kind: 'personal' };
}
