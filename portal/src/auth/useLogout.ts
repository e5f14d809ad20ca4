import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useNavigate } from 'react-router-dom';
import { paths } from '../routes/paths.ts';
import { useServices } from '../lib/servicesContext.ts';
import { useAppState } from '../state/appState.ts';
import { useAuth } from './AuthContext.ts';
import { authErrorMessage } from './authErrorMessage.ts';
import { announceSignedOut } from './stateStatus.ts';

/**
 * Logout (app-shell 4): the call; the state refresh (signing out clears the query cache in
 * App's onSignedOut, which also empties the cart and notifications the shell showed); the
 * logged-out flag for other tabs; the homepage; modals closed. The guards hold still meanwhile
 * (SignOutFlag), or the page being left would send the user to log in again.
 */
export function useLogout(): () => Promise<void> {
  const auth = useAuth();
  const navigate = useNavigate();
  const { dialogs, notify, signingOut } = useServices();
  const { impersonated } = useAppState();
  return async () => {
    // An impersonated session must never reach Auth's logout (it would end the real user's
    // sessions): leaving it is the stop-impersonating page's job.
    if (impersonated) {
      dialogs.closeAll();
      await navigate(paths['kiosk.user.stopImpersonating']);
      return;
    }
    signingOut.set(true);
    try {
      const error = await auth.signOut();
      if (error) {
        notify({ message: authErrorMessage(error), durationMs: NOTICE_DURATION_MS.default });
        return;
      }
      announceSignedOut(window.localStorage);
      // Synchronously, not as a transition, which would keep the page being left on screen
      // (and its guard deciding) while the homepage's code loads.
      await navigate(paths.homepage, { flushSync: true });
      dialogs.closeAll();
    } finally {
      signingOut.set(false);
    }
  };
}
