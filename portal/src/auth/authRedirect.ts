/**
 * What an Auth e-mail link brought back in the address: GoTrue's /verify redirects to the
 * portal with the new session in the fragment (`#access_token=…&type=recovery`). supabase-js
 * takes it from there and clears the fragment once it has fetched the user, so the portal reads
 * it first, when its modules load.
 */
export interface AuthRedirect {
  /** GoTrue's verification type: signup, recovery, magiclink, invite, email_change. */
  type: string;
}

export function readAuthRedirect(href: string): AuthRedirect | null {
  const fragment = new URLSearchParams(new URL(href).hash.replace(/^#/, ''));
  if (!fragment.get('access_token') || !fragment.get('refresh_token')) return null;
  return { type: fragment.get('type') ?? '' };
}

/** Read once, before supabase-js clears the fragment. */
export const landingAuthRedirect: AuthRedirect | null =
  typeof window === 'undefined' ? null : readAuthRedirect(window.location.href);
