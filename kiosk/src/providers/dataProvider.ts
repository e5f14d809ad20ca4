import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { DataProvider, GetListParams, Identifier } from 'react-admin';
import { HttpError } from 'react-admin';
import { supabaseDataProvider } from 'ra-supabase';
import { mappingOf, RESOURCES, type ResourceMapping } from './resources.ts';

/**
 * The kiosk's one data provider: ra-supabase's (PostgREST through the gateway with the signed-in
 * user's JWT, so RLS decides) with
 * - each resource read from its screen's relation and written to its table (resources.ts);
 * - a free-text `q` filter searching the resource's columns;
 * - `rpc` and `callFunction` for the staff RPCs and edge functions, errors as HttpErrors whose
 *   message is the server's, so react-admin's notifications show it.
 */

type Resources = Readonly<Record<string, ResourceMapping>>;

/** Columns a resource's `q` search looks in. */
export type SearchColumns = Readonly<Record<string, readonly string[] | undefined>>;

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

/** The answer a kiosk function or RPC refused with: { code, message } or PostgREST's body. */
export interface ServerRefusal {
  code?: string;
  message?: string;
  details?: string;
  errors?: Record<string, string[]>;
}

/** PostgREST's coded errors carry the spec's wording in `details`; functions in `message`. */
export function refusalMessage(body: ServerRefusal | null, fallback: string): string {
  if (body?.details && /^[A-Z]/.test(body.details)) return body.details;
  return body?.message ?? fallback;
}

export interface KioskDataProvider extends DataProvider {
  /** A staff RPC (public.<name>) with named arguments. */
  rpc<T>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** A kiosk edge function with a JSON body, as the signed-in staff member. */
  callFunction<T>(name: string, body: Record<string, unknown>): Promise<T>;
}

async function functionRefusal(error: unknown): Promise<Error> {
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    const body = (await response.json().catch(() => null)) as ServerRefusal | null;
    return new HttpError(refusalMessage(body, error.message), response.status, body);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The fields an edit changed. react-admin submits the whole record, and a record read from a
 * view carries columns its table does not have (and columns the caller may not change).
 */
export function changedFields(
  data: Record<string, unknown>,
  previousData: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!previousData) return data;
  return Object.fromEntries(
    Object.entries(data).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(previousData[key]),
    ),
  );
}

function primaryKeysOf(resources: Resources): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const mapping of Object.values(resources)) {
    if (!mapping.primaryKey) continue;
    keys.set(mapping.read, [...mapping.primaryKey]);
    if (mapping.write) keys.set(mapping.write, [...mapping.primaryKey]);
  }
  return keys;
}

export function createDataProvider({
  env,
  client,
  resources = RESOURCES,
}: {
  env: SupabaseEnv;
  client: SupabaseClient;
  resources?: Resources;
}): KioskDataProvider {
  const base = supabaseDataProvider({
    instanceUrl: env.supabaseUrl,
    apiKey: env.supabaseAnonKey,
    supabaseClient: client,
    primaryKeys: primaryKeysOf(resources),
  });
  const searchColumns: SearchColumns = Object.fromEntries(
    Object.entries(resources).map(([name, mapping]) => [name, mapping.search]),
  );
  const read = (resource: string) => mappingOf(resource, resources).read;
  const write = (resource: string) => {
    const mapping = mappingOf(resource, resources);
    return mapping.write ?? mapping.read;
  };
  /** After a write to a table a view joins, the screen's record comes from the view. */
  const reread = async (resource: string, id: Identifier) => base.getOne(read(resource), { id });

  return {
    ...base,
    getList: (resource, params) =>
      base.getList(read(resource), withSearch(resource, params, searchColumns)),
    getOne: (resource, params) => base.getOne(read(resource), params),
    getMany: (resource, params) => base.getMany(read(resource), params),
    getManyReference: (resource, params) => base.getManyReference(read(resource), params),
    create: async (resource, params) => {
      const created = await base.create(write(resource), params);
      return write(resource) === read(resource) ? created : reread(resource, created.data.id);
    },
    update: async (resource, params) => {
      const data = changedFields(params.data, params.previousData);
      if (Object.keys(data).length === 0) return reread(resource, params.id);
      const updated = await base.update(write(resource), { ...params, data });
      return write(resource) === read(resource) ? updated : reread(resource, params.id);
    },
    updateMany: (resource, params) => base.updateMany(write(resource), params),
    delete: (resource, params) => base.delete(write(resource), params),
    deleteMany: (resource, params) => base.deleteMany(write(resource), params),

    async rpc<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const { data, error, status } = await client.rpc(name, args);
      if (error) {
        throw new HttpError(refusalMessage(error, 'The request failed'), status, error);
      }
      return data as T;
    },
    async callFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
      const { data, error } = await client.functions.invoke<T>(name, { body });
      if (error) throw await functionRefusal(error);
      return data as T;
    },
  };
}
