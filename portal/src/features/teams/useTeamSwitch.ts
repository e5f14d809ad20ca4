import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSwitchTeamMutation } from '../../data/team-switch-mutation.ts';
import type { TeamSummary } from '../../data/teams-query.ts';
import { escapeHtml } from '../../lib/html.ts';
import { useDialogs, useNotify } from '../../lib/servicesContext.ts';
import { switchConfirmation, switchDestination, switchFailure } from './teamMode.ts';

/**
 * Switching team (link-creation 5, app-shell 4): confirmed in a modal unless the caller already
 * asked (the switch route), then the state refresh and the team's settings, or user settings
 * when leaving team mode from team settings. Resolves true when the switch happened.
 */
export function useTeamSwitch() {
  const mutation = useSwitchTeamMutation();
  const dialogs = useDialogs();
  const notify = useNotify();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { mutateAsync } = mutation;

  const switchTo = useCallback(
    async (target: TeamSummary | null, options: { confirm?: boolean } = {}) => {
      if (options.confirm !== false) {
        const ok = await dialogs.confirm({
          title: target ? 'Switch team' : 'Back to your account',
          messageHtml: escapeHtml(switchConfirmation(target)),
          confirmLabel: 'Switch',
        });
        if (!ok) return false;
      }
      try {
        await mutateAsync(target?.id ?? null);
      } catch (error) {
        const failure = switchFailure(error, target);
        if (failure.kind === 'notice') {
          notify({
            message: failure.message,
            durationMs: NOTICE_DURATION_MS.default,
            tone: 'error',
          });
        }
        void navigate(failure.to, { replace: true });
        return false;
      }
      const to = switchDestination(target, pathname);
      if (to) void navigate(to);
      return true;
    },
    [dialogs, mutateAsync, navigate, notify, pathname],
  );
  return { switchTo, pending: mutation.isPending };
}
