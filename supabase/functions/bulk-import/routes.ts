/**
 * The function's routes, under /bulk-import:
 *   POST bulk/csv                                  workspace from the form's team (or personal)
 *   POST organization/{o}/team/{t}/bulk/csv        team t of organization o
 *   POST organization/{o}/personal/bulk/csv        the caller's personal workspace, in o's mode
 *   GET  bulk/jobs/{id}                            a job's status, as the caller may see it
 * The uploads are link-creation 7's; on the organization routes the path names the workspace and
 * the form's team field is ignored.
 */
import { HttpError } from '../_shared/http.ts';

export interface UploadRoute {
  kind: 'upload';
  /** Organization slug from the path, or null on bulk/csv. */
  organization: string | null;
  /** Team slug from the path; undefined when the form's team field decides (bulk/csv). */
  team: string | null | undefined;
}

export interface JobRoute {
  kind: 'job';
  /** The job's id, lower-case. */
  jobId: string;
}

export type BulkRoute = UploadRoute | JobRoute;

const SLUG = '([a-z0-9]+(?:-[a-z0-9]+)*)';
const UUID = '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';
const ROUTES: [RegExp, (match: RegExpMatchArray) => BulkRoute][] = [
  [/^\/bulk\/csv\/?$/, () => ({ kind: 'upload', organization: null, team: undefined })],
  [
    new RegExp(`^/organization/${SLUG}/team/${SLUG}/bulk/csv/?$`),
    (match) => ({ kind: 'upload', organization: match[1]!, team: match[2]! }),
  ],
  [
    new RegExp(`^/organization/${SLUG}/personal/bulk/csv/?$`),
    (match) => ({ kind: 'upload', organization: match[1]!, team: null }),
  ],
  [
    new RegExp(`^/bulk/jobs/${UUID}/?$`),
    (match) => ({ kind: 'job', jobId: match[1]!.toLowerCase() }),
  ],
];

/** The route of a request path (`/bulk-import/...`), or a 404. */
export function matchRoute(pathname: string): BulkRoute {
  // The runtime passes the path as called: /bulk-import/<route> (also /functions/v1/bulk-import/…
  // behind some proxies).
  const rest = pathname.replace(/^(?:\/functions\/v1)?\/bulk-import(?=\/|$)/, '');
  for (const [pattern, route] of ROUTES) {
    const match = rest.match(pattern);
    if (match) return route(match);
  }
  throw new HttpError(404, 'Not found.', 'not_found');
}
