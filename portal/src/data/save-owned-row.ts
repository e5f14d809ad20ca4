import type { Database } from '@shortlane/shared/database.types.ts';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { unwrap } from './unwrap.ts';

type Tables = Database['public']['Tables'];

/** The tables an owner's settings screens add rows to and change in place. */
export type OwnedTable = 'pixels' | 'webhook_endpoints' | 'organization_roles';

export interface SaveOwnedRow<Table extends OwnedTable> {
  table: Table;
  /** The row to change; none adds one. */
  id?: string | null;
  values: Tables[Table]['Update'];
  /** The owner's column and id, written only when the row is added. */
  owner: Partial<Tables[Table]['Insert']>;
  /**
   * The form shows the database's refusals (422, 409) on its own fields: the global error
   * notice would say the same twice.
   */
  quiet?: boolean;
}

/**
 * Adds an owner's row or changes one, answering its id. The policies decide who may; nothing
 * here checks it again.
 */
export async function saveOwnedRow<Table extends OwnedTable>(
  supabase: PortalSupabase,
  { table, id, values, owner, quiet = false }: SaveOwnedRow<Table>,
): Promise<{ id: string }> {
  // supabase-js cannot narrow its builder over a union of table names; each member of
  // OwnedTable has an `id` and accepts these shapes, which the parameter types above pin.
  const from = supabase.from(table as 'pixels');
  const query =
    id != null
      ? from.update(values as Tables['pixels']['Update']).eq('id', id)
      : from.insert({ ...owner, ...values } as Tables['pixels']['Insert']);
  const single = query.select('id').single();
  return unwrap(await (quiet ? single.setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1') : single));
}
