import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useEffect } from 'react';
import { useNotify } from '../../lib/servicesContext.ts';

/**
 * GoTrue answers the first of the two e-mail change links with a redirect carrying only
 * `#message=…` ("Confirmation link accepted. Please proceed to confirm link sent to the other
 * email"): no session, so supabase-js leaves it alone. Said once as a notice, then dropped from
 * the address so a reload does not say it again.
 */
export function useAuthMessageNotice(): void {
  const notify = useNotify();
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    const message = fragment.get('message');
    if (!message || fragment.has('access_token')) return;
    notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'info' });
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', pathname + search);
  }, [notify]);
}
