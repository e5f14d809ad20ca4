import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useServices } from '../lib/servicesContext.ts';
import { paths } from '../routes/paths.ts';
import { useUserId } from '../data/use-user-id.ts';
import { useSecondFactorDue } from '../features/two-factor/secondFactorContext.ts';
import { useAuth } from './AuthContext.ts';
import { loadSessionData } from './sessionData.ts';
import { stateStatusChange } from './stateStatus.ts';

/**
 * The session as the shell follows it (app-shell 4), mounted once inside the router:
 * - on login (a change of user), the user's invitations, notifications and cart are loaded;
 * - another tab's logout (`stateStatus` becoming false) logs this tab out too: the session is
 *   forgotten here (the other tab already ended it at Auth), the cache goes, modals close and
 *   the homepage shows;
 * - another tab's login (true) reloads this tab at the homepage: the state is built afresh.
 */
export function SessionSync() {
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { supabase, dialogs, signingOut, reload } = useServices();
  // The account only once the session may act for it: a password-only session that still
  // owes its TOTP code loads nothing of it (see useUserId).
  const secondFactorDue = useSecondFactorDue();
  const userId = useUserId();
  const user = userId != null ? auth.user : null;
  const settled = auth.status !== 'loading' && (auth.user == null || secondFactorDue !== null);

  // Loaded when the session changes to a user, not for the session a page starts with: the
  // shell's own queries fetch those as it renders.
  const previousUserId = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!settled) return;
    const signedIn = previousUserId.current !== undefined && previousUserId.current !== userId;
    previousUserId.current = userId;
    if (user && signedIn) void loadSessionData(queryClient, supabase, user);
  }, [settled, userId, user, queryClient, supabase]);

  // The listener reads the latest auth through a ref: re-subscribing on every session change
  // could miss an event fired in between.
  const latest = useRef({ auth, navigate, dialogs, signingOut, reload });
  useEffect(() => {
    latest.current = { auth, navigate, dialogs, signingOut, reload };
  });

  useEffect(() => {
    const followSignOut = async () => {
      const { auth, navigate, dialogs, signingOut } = latest.current;
      signingOut.set(true);
      try {
        // Local only: a global sign-out here would end the user's sessions on other devices.
        if (auth.status === 'signedIn') await auth.signOut('local');
        dialogs.closeAll();
        await navigate(paths.homepage, { flushSync: true });
      } finally {
        signingOut.set(false);
      }
    };
    const followSignIn = async () => {
      const { navigate, dialogs, reload } = latest.current;
      dialogs.closeAll();
      await navigate(paths.homepage, { replace: true });
      // A fresh load reads the new session from storage and builds the state from scratch.
      reload();
    };
    const onStorage = (event: StorageEvent) => {
      const change = stateStatusChange(event, window.localStorage);
      if (change === 'signedOut') void followSignOut();
      if (change === 'signedIn') void followSignIn();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  return null;
}
