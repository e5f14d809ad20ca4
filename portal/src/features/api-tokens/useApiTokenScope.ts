import { useParams, useSearchParams } from 'react-router-dom';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useTeamBySlugQuery } from '../../data/teams-query.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { href } from '../../routes/paths.ts';

/**
 * Whose tokens a page shows: the user's (settings/api…) or a team's
 * (organization/{org}/team/{team}/api…, or the organization's settings/teams/api?team={team}).
 * One set of screens serves them all; this says which, where its pages are, and the account the
 * tokens belong to.
 */
export interface ApiTokenScope {
  kind: 'user' | 'team';
  /** "Your API tokens" or "API tokens of <team>". */
  heading: string;
  listPath: string;
  newPath: string;
  editPath: (tokenId: string) => string;
}

export type ApiTokenScopeState =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'ready'; scope: ApiTokenScope; accountId: string };

export function useApiTokenScope(): ApiTokenScopeState {
  const route = useCurrentRouteName();
  const { org = '', team: teamParam = '' } = useParams();
  const [search] = useSearchParams();
  // The organization's settings/teams/api names the team it shows in its query string.
  const fromOrganization = route === 'org.settings.teams.api';
  const team = fromOrganization ? (search.get('team') ?? '') : teamParam;
  const isTeam = route.startsWith('team.') || (fromOrganization && team !== '');
  const profile = useProfileQuery();
  // The team-exists guard has already fetched this: it comes from the cache.
  const teamQuery = useTeamBySlugQuery(org, team, isTeam);

  if (isTeam) {
    if (teamQuery.isPending) return { status: 'loading' };
    if (teamQuery.isError || !teamQuery.data?.account_id) {
      return { status: 'error', retry: () => void teamQuery.refetch() };
    }
    const params = { org, team };
    return {
      status: 'ready',
      accountId: teamQuery.data.account_id,
      scope: {
        kind: 'team',
        heading: `API tokens of ${teamQuery.data.name}`,
        listPath: fromOrganization
          ? `${href('org.settings.teams.api', { org })}?${new URLSearchParams({ team })}`
          : href('team.api', params),
        newPath: href('team.api.new', params),
        editPath: (tokenId) => href('team.api.edit', { ...params, tokenId }),
      },
    };
  }
  if (profile.isPending) return { status: 'loading' };
  if (profile.isError || !profile.data?.personal_account_id) {
    return { status: 'error', retry: () => void profile.refetch() };
  }
  return {
    status: 'ready',
    accountId: profile.data.personal_account_id,
    scope: {
      kind: 'user',
      heading: 'API tokens',
      listPath: href('settings.api'),
      newPath: href('settings.api.new'),
      editPath: (tokenId) => href('settings.api.edit', { tokenId }),
    },
  };
}
