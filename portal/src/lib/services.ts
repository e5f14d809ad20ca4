import { createNotificationsStore, type NotificationsStore } from '@mantine/notifications';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import { createHandledFetch } from '../api/globalResponses.ts';
import { guardImpersonationLogout } from '../auth/impersonationLogoutGuard.ts';
import { reauthenticate, reauthenticationNeedsCode } from '../auth/reauthenticate.ts';
import { SignOutFlag } from '../auth/signOutFlag.ts';
import { createSessionExpiry } from '../auth/sessionExpiry.ts';
import { DialogStore } from '../dialogs/dialogStore.ts';
import { createNotifier, type Notify } from '../notices/notices.ts';
import { FlashStore } from '../state/flash.ts';
import type { PortalConfig } from './config.ts';
import { createSupabaseClient, type PortalSupabase } from './supabase.ts';

/** What the whole portal shares: one Supabase client, the modals, the notices, the settings. */
export interface PortalServices {
  supabase: PortalSupabase;
  /** Where the client talks to; for a second, short-lived client (checking a password aside). */
  env: SupabaseEnv;
  config: PortalConfig;
  dialogs: DialogStore;
  flash: FlashStore;
  noticeStore: NotificationsStore;
  notify: Notify;
  /** Leaves the app for another site (the external redirects). */
  leave: (url: string) => void;
  signingOut: SignOutFlag;
  /** Loads the current page again (a tab following another tab's login). */
  reload: () => void;
  /** `fetch` through the global response handler, for calls made without supabase-js. */
  apiFetch: typeof fetch;
}

export interface PortalServicesOptions {
  env: SupabaseEnv;
  config: PortalConfig;
  /** The network; tests answer requests themselves. */
  fetch?: typeof fetch;
  reload?: () => void;
  leave?: (url: string) => void;
  persistSession?: boolean;
  storageKey?: string;
}

export function createPortalServices(options: PortalServicesOptions): PortalServices {
  const { localStorage, sessionStorage } = window;
  const dialogs = new DialogStore();
  const noticeStore = createNotificationsStore();
  const notify = createNotifier(noticeStore);

  // The handler needs the client and the client needs the handler; the handler only reaches
  // for the client once a request is under way, by which time it exists.
  const client = (): PortalSupabase => supabase;
  const reload = options.reload ?? (() => window.location.reload());
  const expireSession = createSessionExpiry({
    get supabase() {
      return client();
    },
    localStorage,
    sessionStorage,
    reload,
  });
  const handledFetch = createHandledFetch(
    {
      notify,
      showErrorModal: (props) => dialogs.showError(props),
      confirmPassword: async () => {
        const aside = { env: options.env, fetch: handledFetch };
        return dialogs.confirmPassword(
          (password, code) => reauthenticate(client(), { password, code }, localStorage, aside),
          { withCode: await reauthenticationNeedsCode(client()) },
        );
      },
      accessToken: async () =>
        (await client().auth.getSession()).data.session?.access_token ?? null,
      expireSession,
      anonKey: options.env.supabaseAnonKey,
    },
    guardImpersonationLogout(options.fetch ?? ((input, init) => fetch(input, init))),
  );
  const supabase = createSupabaseClient(options.env, {
    fetch: handledFetch,
    persistSession: options.persistSession,
    storageKey: options.storageKey,
  });
  return {
    supabase,
    env: options.env,
    config: options.config,
    dialogs,
    flash: new FlashStore(),
    noticeStore,
    notify,
    leave: options.leave ?? ((url) => window.location.replace(url)),
    signingOut: new SignOutFlag(),
    reload,
    apiFetch: handledFetch,
  };
}
