import { MESSAGES } from '@shortlane/shared/messages.ts';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useEffect, useRef } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useNotify } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { useTeamSwitch } from './useTeamSwitch.ts';

/**
 * {teamPrefix}/{teamId}/switch: opening it is the request to switch, so no modal. A team the
 * user is not on ends on the settings teams page with 'Unknown team.'; the database has the
 * last word (switch_team) for everything else.
 */
export default function TeamSwitchPage() {
  const { teamId = '' } = useParams();
  const viewer = useViewer();
  const notify = useNotify();
  const { switchTo } = useTeamSwitch();
  const started = useRef(false);
  const team = viewer?.teams.find((candidate) => candidate.id === teamId) ?? null;

  useEffect(() => {
    if (started.current || !viewer) return;
    started.current = true;
    if (!team) {
      notify({
        message: teamId ? MESSAGES.unknownTeam : MESSAGES.teamRequired,
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'error',
      });
      return;
    }
    void switchTo(team, { confirm: false });
  }, [viewer, team, teamId, notify, switchTo]);

  if (viewer && !team) return <Navigate to={paths['settings.teams']} replace />;
  return <PageLoader />;
}
