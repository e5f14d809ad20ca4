import { useParams } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { useSecondFactorDue } from '../../features/two-factor/secondFactorContext.ts';
import { useMyOrganizationsQuery } from '../../data/organizations-query.ts';
import { useAppState } from '../../state/appState.ts';
import { STANDALONE_TEAM_ORG } from '../../data/teams-query.ts';
import type { NavViewer } from './navModel.ts';

/**
 * Who the navigation is for: a guest, a session still owing its second factor, a user whose
 * account is known, or not known yet.
 */
export function useNavViewer(): NavViewer {
  const { status } = useAuth();
  const secondFactorDue = useSecondFactorDue();
  const { viewer } = useAppState();
  if (status === 'guest') return { kind: 'guest' };
  if (status === 'signedIn' && secondFactorDue === true) return { kind: 'secondFactor' };
  return viewer ? { kind: 'user', viewer } : { kind: 'loading' };
}

/** The organization the organization links point at: the one on screen, else the first. */
export function useCurrentOrganizationSlug(enabled: boolean): string | null {
  const { org } = useParams();
  const organizations = useMyOrganizationsQuery(enabled && org == null).data ?? [];
  if (!enabled) return null;
  if (org && org !== STANDALONE_TEAM_ORG) return org;
  return organizations.find((candidate) => !candidate.archived)?.slug ?? null;
}
