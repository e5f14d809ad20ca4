/**
 * The kiosk screen a portal kiosk route stands for. The kiosk app answers the spec's kiosk paths
 * without the portal's `/app/kiosk` prefix (users, user/{id}, alias/{domain}/{alias}…), so the
 * rest of the path and its query carry over unchanged. Null when the kiosk's address is unknown
 * or the path is not a kiosk path.
 */
export function kioskAddress(kioskUrl: string | null, pathname: string, search: string) {
  if (kioskUrl == null) return null;
  const match = /^\/app\/kiosk(\/.*)?$/.exec(pathname);
  if (match == null) return null;
  const base = kioskUrl.replace(/\/+$/, '');
  return `${base}${match[1] ?? '/'}${search}`;
}
