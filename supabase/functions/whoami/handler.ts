import { handler, json } from '../_shared/http.ts';
import { asCaller } from '../_shared/sql.ts';

export interface Whoami {
  user_id: string | null;
  role: string | null;
  aal: string | null;
}

/**
 * Who the database thinks the caller is: the claims go through `asCaller` and come back out of
 * auth.uid() / auth.role() / auth.jwt(), so this answers what RLS will see.
 */
export const whoami = handler(async (request) => {
  const [row] = await asCaller(
    request,
    (sql) => sql<Whoami[]>`
      select auth.uid()::text as user_id, auth.role() as role, auth.jwt() ->> 'aal' as aal`,
  );
  return json(row);
});
