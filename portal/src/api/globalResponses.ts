import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { globalResponseAction, mapApiError } from '@shortlane/shared/errors.ts';
import type { ErrorModalProps } from '../dialogs/dialogStore.ts';
import type { Notify } from '../notices/notices.ts';

/**
 * The one global response handler (app-shell 8), as a `fetch` that supabase-js is given: every
 * REST, RPC, Storage and Functions call goes through it, and so can plain fetches to functions.
 * Auth calls are left to supabase-js, which owns the session (a 400 for a wrong password or a
 * 401 while refreshing is its business, not a "session expired").
 *
 * A request opts out by sending SKIP_GLOBAL_ERRORS_HEADER, which is removed before it leaves:
 * `supabase.from('notifications').select().setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1')`.
 */
export const SKIP_GLOBAL_ERRORS_HEADER = 'x-shortlane-skip-global-errors';

/**
 * A request whose caller says what went wrong itself sends OWN_ERROR_NOTICE_HEADER (also removed
 * before it leaves): session expiry, the password confirmation and the error modal still apply,
 * but the status notice is left out, so one failure shows one message, not "Not Found" beside
 * "Invitation not found.".
 */
export const OWN_ERROR_NOTICE_HEADER = 'x-shortlane-own-error-notice';

/** Headers to spread into a request that handles its own errors. */
export const skipGlobalErrors: Readonly<Record<string, string>> = {
  [SKIP_GLOBAL_ERRORS_HEADER]: '1',
};

export interface GlobalResponseDeps {
  notify: Notify;
  showErrorModal(props: ErrorModalProps): void;
  /** Opens the password confirmation modal; true once the user has re-authenticated. */
  confirmPassword(): Promise<boolean>;
  /** The access token to retry with after a password confirmation. */
  accessToken(): Promise<string | null>;
  /** Sets the logged-out flag, keeps `message` for after the reload, and reloads. */
  expireSession(message: string): Promise<void>;
  /** The project's anon key: a request bearing it was made by a guest. */
  anonKey: string;
}

const JSON_TYPE = /\bjson\b/i;

function isAuthRequest(url: string): boolean {
  return new URL(url).pathname.includes('/auth/v1/');
}

/**
 * PostgREST answers 401 to a guest whose role lacks a grant: that is a refusal, not an
 * expired session (reloading would only ask again).
 */
function madeByGuest(request: Request, anonKey: string): boolean {
  const authorization = request.headers.get('authorization');
  return authorization == null || authorization === `Bearer ${anonKey}`;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.clone().json();
  } catch {
    return null;
  }
}

export function createHandledFetch(
  deps: GlobalResponseDeps,
  baseFetch: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  const globalNotice = (message: string) =>
    deps.notify({ message, durationMs: NOTICE_DURATION_MS.globalError, tone: 'error' });

  async function handle(
    response: Response,
    replay: Request,
    ownNotice: boolean,
  ): Promise<Response> {
    const isJson = JSON_TYPE.test(response.headers.get('content-type') ?? '');
    const refusedGuest = response.status === 401 && madeByGuest(replay, deps.anonKey);
    const action = globalResponseAction(refusedGuest ? 403 : response.status, isJson);
    switch (action.kind) {
      case 'none':
        return response;
      case 'error_modal':
        deps.showErrorModal({ message: action.message });
        return response;
      case 'session_expired':
        await deps.expireSession(action.message);
        return response;
      case 'confirm_password': {
        if (!(await deps.confirmPassword())) return response;
        const headers = new Headers(replay.headers);
        const token = await deps.accessToken();
        if (token) headers.set('authorization', `Bearer ${token}`);
        const retry = new Request(replay, { headers });
        const nextReplay = retry.clone();
        return handle(await baseFetch(retry), nextReplay, ownNotice);
      }
      case 'notice': {
        if (ownNotice) return response;
        globalNotice(action.message);
        if (response.status === 422) {
          const { fieldErrors, notices } = mapApiError(422, await readJson(response));
          if (Object.keys(fieldErrors).length > 0) {
            for (const message of notices) {
              deps.notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'error' });
            }
          }
        }
        return response;
      }
    }
  }

  return async (input, init) => {
    const request = new Request(input, init);
    const skip = request.headers.has(SKIP_GLOBAL_ERRORS_HEADER);
    const ownNotice = request.headers.has(OWN_ERROR_NOTICE_HEADER);
    request.headers.delete(SKIP_GLOBAL_ERRORS_HEADER);
    request.headers.delete(OWN_ERROR_NOTICE_HEADER);
    if (skip || isAuthRequest(request.url)) return baseFetch(request);
    // A body can be read once: keep a copy in case a password confirmation asks for a retry.
    const replay = request.clone();
    return handle(await baseFetch(request), replay, ownNotice);
  };
}
