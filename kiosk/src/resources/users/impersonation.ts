/**
 * Impersonation opens the portal as the user: kiosk-impersonate mints a token for them, and the
 * portal's /app/kiosk/user/impersonate page takes it from the URL fragment (never sent to any
 * server), keeps the portal's own session aside and signs in with it. "Back To My Account"
 * (/app/kiosk/user/stop-impersonating) ends it and restores that session.
 */
export const PORTAL_IMPERSONATE_PATH = '/app/kiosk/user/impersonate';

export interface ImpersonationStart {
  access_token: string;
  expires_at: number;
  impersonation_id: number;
  user: { id: string; email: string | null };
}

export function portalImpersonationUrl(portalUrl: string, start: ImpersonationStart): string {
  const fragment = new URLSearchParams({ impersonation_token: start.access_token });
  return `${portalUrl}${PORTAL_IMPERSONATE_PATH}#${fragment}`;
}

/**
 * Opens the portal in a new tab once the token is there. The tab is opened at once, while the
 * click still counts as the user's (browsers block pop-ups opened later), and pointed at the
 * portal when the token arrives; if pop-ups are blocked anyway, this tab goes instead.
 */
export async function openImpersonation(
  portalUrl: string,
  start: () => Promise<ImpersonationStart>,
  browser: Pick<Window, 'open' | 'location'> = window,
): Promise<ImpersonationStart> {
  const tab = browser.open('', '_blank');
  try {
    const started = await start();
    const url = portalImpersonationUrl(portalUrl, started);
    if (tab) {
      // The portal must not be able to script the kiosk.
      tab.opener = null;
      tab.location.href = url;
    } else {
      browser.location.assign(url);
    }
    return started;
  } catch (error) {
    tab?.close();
    throw error;
  }
}
