import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { hasFeature } from '@shortlane/shared/features.ts';
import { useDeferredValue, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  accountAnalyticsAccessQuery,
  accountAnalyticsQuery,
} from '../../data/link-analytics-query.ts';
import {
  DEFAULT_LINKS_PER_PAGE,
  linkListQuery,
  useLinkListQuery,
  useTeamAccountIdQuery,
  type LinkListParams,
  type LinkListScope,
} from '../../data/links-list-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { AccountAnalyticsPanel } from '../../features/analytics/AccountAnalyticsPanel.tsx';
import { effectivePeriod, storedStatsPeriod } from '../../features/analytics/period.ts';
import { useAccountClicks } from '../../features/analytics/useAccountClicks.ts';
import {
  LIST_PARAMS,
  LinkListView,
  readListParams,
} from '../../features/links/list/LinkListView.tsx';
import { formatLinkSearch, parseLinkSearch } from '../../features/links/list/search.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import type { FirstRequestContext } from '../../routes/firstRequests.ts';
import { useViewer, type Viewer } from '../../state/appState.ts';

/**
 * After creating a link the form sends the user to the homepage with ?alias=…&active=true
 * (link-creation 4); here that becomes the list's search for the new alias among active links.
 * Answers true until then, so the list does not first read the unfiltered page.
 */
function useCreatedAliasSearch(): boolean {
  const [params, setParams] = useSearchParams();
  const alias = params.get('alias');
  useEffect(() => {
    if (alias == null) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('alias');
        next.delete('active');
        next.delete(LIST_PARAMS.state);
        next.delete(LIST_PARAMS.page);
        if (alias !== '')
          next.set(LIST_PARAMS.search, formatLinkSearch({ field: 'alias', term: alias }));
        return next;
      },
      { replace: true },
    );
  }, [alias, setParams]);
  return alias != null;
}

/** The workspace whose links the dashboard lists: the team in team mode, else the user's own. */
function useDashboardScope(viewer: Viewer | null) {
  const profile = useProfileQuery();
  const teamId = viewer?.teamMode ? (profile.data?.current_team_id ?? null) : null;
  const teamAccount = useTeamAccountIdQuery(teamId);
  if (profile.isError || teamAccount.isError)
    return {
      status: 'error' as const,
      retry: () => {
        void profile.refetch();
        void teamAccount.refetch();
      },
    };
  if (!viewer || !profile.data || (teamId != null && !teamAccount.data)) {
    return { status: 'loading' as const };
  }
  const scope: LinkListScope = {
    accountId: teamId != null ? teamAccount.data! : profile.data.personal_account_id,
  };
  return { status: 'ready' as const, scope, team: teamId != null };
}

/**
 * The route renders this while the shell still loads the account (routeTable): the clicks, the
 * panel's two requests in a row, and the page of links the address asks for start once the
 * profile names the personal account instead of after the whole account and the page's mount.
 * In team mode the viewer says which account; the page asks then. An address with a created
 * alias becomes another search first (useCreatedAliasSearch): that list waits for the page.
 */
export function Prefetch() {
  const profile = useProfileQuery();
  const [params] = useSearchParams();
  const personal = profile.data && !profile.data.team_mode;
  const accountId = personal ? profile.data!.personal_account_id : null;
  useAccountClicks(accountId);
  useLinkListQuery(listParams(accountId ?? '', params), accountId != null && !params.has('alias'));
  return null;
}

/** The key LinkListView builds for the same address, so the page finds the rows cached. */
function listParams(accountId: string, params: URLSearchParams): LinkListParams {
  const { state, searchText, page } = readListParams(params);
  return {
    scope: { accountId },
    state,
    search: parseLinkSearch(searchText),
    page,
    perPage: DEFAULT_LINKS_PER_PAGE,
  };
}

/**
 * The same requests as Prefetch, from the entry (routes/firstRequests.ts): the clicks' two in a
 * row chained here, as each answer arrives, not after a render of the busy shell.
 */
export async function prefetchData({
  queryClient,
  supabase,
  userId,
  profile,
  location,
}: FirstRequestContext): Promise<void> {
  if (profile.team_mode) return;
  const accountId = profile.personal_account_id;
  const params = new URLSearchParams(location.search);
  if (!params.has('alias')) {
    void queryClient.prefetchQuery(linkListQuery(supabase, userId, listParams(accountId, params)));
  }
  const allowed = await queryClient.fetchQuery(
    accountAnalyticsAccessQuery(supabase, userId, accountId),
  );
  if (allowed.length === 0) return;
  const period = effectivePeriod(storedStatsPeriod(), allowed);
  await queryClient.prefetchQuery(accountAnalyticsQuery(supabase, userId, accountId, period));
}

export default function DashboardPage() {
  const { productName } = useConfig();
  usePageTitle('Dashboard', productName);
  const rewritingAddress = useCreatedAliasSearch();
  const viewer = useViewer();
  const workspace = useDashboardScope(viewer);
  const waiting = workspace.status === 'loading' || rewritingAddress;
  // The page's first render (clicks panel, list controls) happens in a transition, in slices: the
  // answer that makes the workspace known would otherwise render it all in one long task.
  // Also when the page opens with the workspace already known (true at first).
  const waited = useDeferredValue(waiting, true);

  // The heading paints at once, so the first contentful paint is also the largest: the page's
  // figures and list arrive below it, in place of a screen-tall loader.
  const teamWorkspace = workspace.status === 'ready' ? workspace.team : Boolean(viewer?.teamMode);
  const heading = (
    <div>
      <Title order={1}>Dashboard</Title>
      <Text mt="xs" c="gray.7">
        {teamWorkspace ? "Your team's short links" : 'Your short links'}, newest first.
      </Text>
    </div>
  );

  if (workspace.status === 'error') {
    return (
      <Container size="lg" py="xl">
        <Stack gap="lg">
          {heading}
          <div>
            <Alert color="red" role="alert" title="Your links could not be loaded">
              Check your connection and try again.
            </Alert>
            <Button mt="md" onClick={workspace.retry}>
              Try again
            </Button>
          </div>
        </Stack>
      </Container>
    );
  }
  if (waiting || waited || workspace.status !== 'ready') {
    return (
      <Container size="lg" py="xl">
        <Stack gap="lg">
          {heading}
          <PageLoader />
        </Stack>
      </Container>
    );
  }

  // In team mode the team's plan decides; the server checks either way.
  const allowances =
    workspace.team || !viewer
      ? undefined
      : {
          changeDestination: hasFeature(viewer, 'change_long_url'),
          tags: hasFeature(viewer, 'use_tags'),
          expiry: hasFeature(viewer, 'manage_expiration'),
        };

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        {heading}
        {workspace.scope.accountId && (
          <AccountAnalyticsPanel accountId={workspace.scope.accountId} />
        )}
        <div>
          <Title order={2} size="h3" mb="sm">
            Links
          </Title>
          <LinkListView scope={workspace.scope} label="Links" allowances={allowances} />
        </div>
      </Stack>
    </Container>
  );
}
