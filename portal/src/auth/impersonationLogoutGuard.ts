import { impersonationOf } from '../features/impersonation/claims.ts';

/**
 * Keeps an impersonation token away from Auth's /logout. Such a token belongs to no Auth
 * session, and Auth (as GoTrue) answers a logout for a sessionless token by ending every
 * session of the user: the real user's own. Whatever signs out while impersonating (an expired
 * session, a stray call), supabase-js gets a local 204 and just forgets the session here.
 */
export function guardImpersonationLogout(baseFetch: typeof fetch): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const isLogout = new URL(request.url).pathname.endsWith('/auth/v1/logout');
    const token = request.headers.get('authorization')?.replace(/^Bearer /i, '');
    if (isLogout && impersonationOf(token) != null) {
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return baseFetch(request);
  };
}
