import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { DataProvider, GetListParams } from 'react-admin';
import { supabaseDataProvider } from 'ra-supabase';

/**
 * The kiosk's one data provider: ra-supabase's (PostgREST through the gateway, the signed-in
 * user's JWT, so RLS decides) plus a free-text `q` filter for list screens' search boxes.
 */

/** Columns a resource's `q` search looks in; each resource folder adds its own. */
export type SearchColumns = Readonly<Record<string, readonly string[]>>;

export const SEARCH_COLUMNS: SearchColumns = {};

// Characters with a meaning in PostgREST's or=(…) syntax or in ilike patterns.
const SEARCH_SYNTAX = /[,()"'\\:*%.]/g;

/**
 * Turns `filter.q` into "these words, in this order, in any searchable column" (ilike
 * `%word%word%`), keeping the other filters. The text is reduced to plain words first so it
 * cannot change the meaning of the query.
 */
export function withSearch(
  resource: string,
  params: GetListParams,
  searchColumns: SearchColumns,
): GetListParams {
  const { q, ...filter } = (params.filter ?? {}) as Record<string, unknown>;
  if (q === undefined || q === null || q === '') return params;
  const columns = searchColumns[resource];
  if (!columns?.length) {
    throw new Error(`The kiosk cannot search ${resource}: no search columns are configured.`);
  }
  const words = String(q).replace(SEARCH_SYNTAX, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { ...params, filter };
  // One pattern per column: ra-data-postgrest would split spaces into several ilike filters,
  // which its @or handling cannot combine beyond two. `*` is PostgREST's wildcard in patterns.
  const pattern = words.join('*');
  const anyColumn = Object.fromEntries(columns.map((column) => [`${column}@ilike`, pattern]));
  return { ...params, filter: { ...filter, '@or': anyColumn } };
}

export function createDataProvider({
  env,
  client,
  searchColumns = SEARCH_COLUMNS,
}: {
  env: SupabaseEnv;
  client: SupabaseClient;
  searchColumns?: SearchColumns;
}): DataProvider {
  const base = supabaseDataProvider({
    instanceUrl: env.supabaseUrl,
    apiKey: env.supabaseAnonKey,
    supabaseClient: client,
  });
  return {
    ...base,
    getList: (resource, params) =>
      base.getList(resource, withSearch(resource, params, searchColumns)),
  };
}
