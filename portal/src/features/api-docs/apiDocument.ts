import document from '@shortlane/shared/api/openapi.json';

/** What the page reads of the OpenAPI document itself; the viewer reads the rest. */
export interface ErrorCode {
  code: string;
  status: number;
  meaning: string;
}

export const apiDocument = document as typeof document & { 'x-error-codes'?: ErrorCode[] };

/**
 * The API's base URL. The document names its server relative to where it is served
 * (`/functions/v1/api`), which is this project's gateway: the one the portal talks to.
 */
export function serverUrlOf(supabaseUrl: string): string {
  const server = apiDocument.servers[0]?.url ?? '';
  return new URL(server, supabaseUrl.endsWith('/') ? supabaseUrl : `${supabaseUrl}/`)
    .toString()
    .replace(/\/$/, '');
}

/**
 * The document with its server made absolute: a viewer would resolve the relative one against
 * the portal's own origin, where no API answers.
 */
export function documentFor(supabaseUrl: string): typeof apiDocument {
  return {
    ...apiDocument,
    servers: apiDocument.servers.map((server, index) =>
      index === 0 ? { ...server, url: serverUrlOf(supabaseUrl) } : server,
    ),
  };
}
