import { NOTICE_DURATION_MS, STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useNavigate } from 'react-router-dom';
import { paths } from '../routes/paths.ts';
import { useServices } from '../lib/servicesContext.ts';
import { useAppState } from '../state/appState.ts';
import { useAuth } from './AuthContext.ts';
import { authErrorMessage } from './authErrorMessage.ts';

/**
 * Logout (app-shell 4): modals closed, the homepage, the call, the logged-out flag for other
 * tabs. Signing out clears the query cache (App's onSignedOut), which is the state refresh
 * and empties the cart and notifications the shell showed. The homepage comes first: left on a
 * protected page, the login guard would send the user to log in again.
 */
export function useLogout(): () => Promise<void> {
  const auth = useAuth();
  const navigate = useNavigate();
  const { dialogs, notify } = useServices();
  const { impersonated } = useAppState();
  return async () => {
    dialogs.closeAll();
    // An impersonated session must never reach Auth's logout (it would end the real user's
    // sessions): leaving it is the stop-impersonating page's job.
    if (impersonated) {
      await navigate(paths['kiosk.user.stopImpersonating']);
      return;
    }
    // Synchronously, not as a transition: a transition would keep the protected page on
    // screen while the homepage's code loads, and its guard would see the sign-out.
    await navigate(paths.homepage, { flushSync: true });
    const error = await auth.signOut();
    if (error) {
      notify({ message: authErrorMessage(error), durationMs: NOTICE_DURATION_MS.default });
      return;
    }
    window.localStorage.setItem(STORAGE_KEYS.stateStatus, 'false');
  };
}
