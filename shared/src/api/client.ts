/**
 * A typed client of the public API, made from its OpenAPI document alone: the types are
 * openapi-typescript's (schema.ts, `npm run gen:openapi`), the calls openapi-fetch's. Paths,
 * parameters, bodies and answers are checked against the document at compile time.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

export type ShortlaneApiClient = Client<paths>;

export interface ShortlaneApiOptions {
  /** Where the function answers, e.g. `https://<project>.supabase.co/functions/v1/api`. */
  baseUrl: string;
  /** An API token (slt_…). */
  token: string;
  fetch?: ClientOptions['fetch'];
}

export function createShortlaneApi(options: ShortlaneApiOptions): ShortlaneApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
