import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import {
  Suspense,
  useEffect,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { useAuth } from '../auth/AuthContext.ts';
import { useSecondFactorDue } from '../features/two-factor/secondFactorContext.ts';
import { PageLoader } from '../components/PageLoader.tsx';
import { StateErrorPage } from '../components/StateErrorPage.tsx';
import { useTeamBySlugQuery } from '../data/teams-query.ts';
import { useNotify, useServices } from '../lib/servicesContext.ts';
import { useAppState } from '../state/appState.ts';
import { decideAccess, type AccessInput } from './access.ts';

interface Props {
  route: AccessInput['route'];
  /**
   * Starts the page's first requests while access is undecided (it renders nothing); it leaves
   * when the page comes, which finds the answers in the query cache.
   */
  prefetch?: ComponentType | undefined;
  children: ReactNode;
}

/** Looks the route's team up only for routes that need it to exist. */
function useTeamPresence(needed: boolean): AccessInput['team'] {
  const { org = '', team = '' } = useParams();
  const query = useTeamBySlugQuery(org, team, needed);
  if (!needed) return undefined;
  if (query.isPending) return 'loading';
  return query.data ? 'found' : 'missing';
}

function RedirectWithNotice({ to, notice }: { to: string; notice: string }) {
  const notify = useNotify();
  useEffect(() => {
    notify({ message: notice, durationMs: NOTICE_DURATION_MS.default, tone: 'error' });
  }, [notify, notice]);
  return <Navigate to={to} replace />;
}

/** Renders the page, a loader while access is undecided, or the redirect the guards ask for. */
export function RouteGuard({ route, prefetch: Prefetch, children }: Props) {
  const { status } = useAuth();
  const state = useAppState();
  const secondFactorDue = useSecondFactorDue();
  const location = useLocation();
  const { signingOut } = useServices();
  const leaving = useSyncExternalStore(signingOut.subscribe, signingOut.getSnapshot);
  const team = useTeamPresence(route.guards.includes('teamExists') && status === 'signedIn');
  const decision = decideAccess({
    route,
    authStatus: status,
    state,
    target: location.pathname + location.search,
    team,
    secondFactorDue,
  });
  // A logout on its way to the homepage: redirect nowhere meanwhile.
  if (leaving && decision.kind === 'redirect') return <PageLoader />;
  switch (decision.kind) {
    case 'allow':
      return children;
    case 'wait':
      return (
        <>
          {Prefetch && (
            <Suspense fallback={null}>
              <Prefetch />
            </Suspense>
          )}
          <PageLoader />
        </>
      );
    case 'error':
      return <StateErrorPage onRetry={state.retry} />;
    case 'redirect':
      return decision.notice ? (
        <RedirectWithNotice to={decision.to} notice={decision.notice} />
      ) : (
        <Navigate to={decision.to} replace />
      );
  }
}
