/**
 * The create routes of link-creation section 7, under the function's name (`/links/...`, as the
 * runtime hands the function its path from the name on):
 *
 *   POST url/create                                   personal workspace, or the body's team
 *   POST organization/{o}/team/{t}/url/create         a team of an organization
 *   POST organization/{o}/personal/url/create         the caller's links in organization mode
 */

export const FUNCTION_NAME = 'links';

/** Where the new link goes, as the address says. */
export type Workspace =
  /** The caller's personal workspace, or a standalone team named by the body's `team`. */
  | { kind: 'own' }
  | { kind: 'organization-team'; organization: string; team: string }
  | { kind: 'organization-personal'; organization: string };

function decodeSegment(segment: string): string | null {
  try {
    const text = decodeURIComponent(segment);
    return text === '' || text.includes('/') ? null : text;
  } catch {
    return null; // a malformed %-escape names nothing
  }
}

/** The workspace a path addresses, or null when it is not one of the create routes. */
export function matchCreateRoute(pathname: string): Workspace | null {
  const prefix = `/${FUNCTION_NAME}/`;
  if (!pathname.startsWith(prefix)) return null;
  const segments = pathname.slice(prefix.length).split('/');
  const [first, second, third, fourth, fifth, sixth, ...rest] = segments;
  if (rest.length > 0) return null;
  if (segments.length === 2 && first === 'url' && second === 'create') return { kind: 'own' };
  if (first !== 'organization' || second === undefined) return null;
  const organization = decodeSegment(second);
  if (organization === null) return null;
  if (segments.length === 5 && third === 'personal' && fourth === 'url' && fifth === 'create')
    return { kind: 'organization-personal', organization };
  if (segments.length === 6 && third === 'team' && fourth !== undefined) {
    const team = decodeSegment(fourth);
    if (team !== null && fifth === 'url' && sixth === 'create')
      return { kind: 'organization-team', organization, team };
  }
  return null;
}
