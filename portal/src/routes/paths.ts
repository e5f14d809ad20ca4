/**
 * Named routes (the spec's route names) and their paths under the /app prefix. Pages link by
 * name through `paths`, so a path changes in one place.
 */
export const APP_PREFIX = '/app';

export const paths = {
  homepage: APP_PREFIX,
  login: `${APP_PREFIX}/login`,
} as const;

export type RouteName = keyof typeof paths;

/** The query parameter carrying where a guest was going when sent to log in. */
export const RETURN_PARAM = 'to';

/** The login page, remembering `target` (a path with its query) to return to afterwards. */
export function loginPathFor(target: string): string {
  return `${paths.login}?${new URLSearchParams({ [RETURN_PARAM]: target })}`;
}

/**
 * `raw` if it is a path inside the app that is safe to send someone to after login, else null.
 * Only same-origin /app paths pass, so a crafted link cannot send a user to another site
 * (`//evil.example`, `/\evil.example`) or loop back to the login page.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (!/^\/app(?:[/?#]|$)/.test(raw)) return null;
  if (/[\\\s]/.test(raw) || raw.includes('//')) return null;
  const pathname = raw.split(/[?#]/)[0]!.replace(/\/+$/, '');
  if (pathname === paths.login) return null;
  return raw;
}
