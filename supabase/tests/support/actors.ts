import type pg from 'pg';
import { isInTransaction } from './db.ts';

/** Someone acting through the API: a signed-in user (by id) or an anonymous visitor (null). */
export type Actor =
  | string
  | {
      id: string;
      email?: string;
      aal?: 'aal1' | 'aal2';
      impersonation?: boolean;
      /** When the session's password sign-in happened (the amr entry a 423 confirmation renews). */
      passwordAt?: Date;
    }
  | null;

/** The JWT claims PostgREST would set for this actor (auth.uid(), auth.role(), auth.jwt()). */
export function claimsFor(actor: Actor): Record<string, unknown> {
  if (actor === null) return { role: 'anon' };
  const user = typeof actor === 'string' ? { id: actor } : actor;
  return {
    sub: user.id,
    role: 'authenticated',
    aud: 'authenticated',
    aal: user.aal ?? 'aal1',
    ...(user.email ? { email: user.email } : {}),
    // What kiosk-impersonate's token says (supabase/functions/kiosk-impersonate/token.ts).
    ...(user.impersonation
      ? { amr: [{ method: 'impersonation', timestamp: Math.floor(Date.now() / 1000) }] }
      : {}),
    ...(user.passwordAt
      ? { amr: [{ method: 'password', timestamp: Math.floor(user.passwordAt.getTime() / 1000) }] }
      : {}),
  };
}

/** The user signed in with the password only, or with the second factor too. */
export const aal1 = (user: { id: string }): Actor => ({ id: user.id, aal: 'aal1' });
export const aal2 = (user: { id: string }): Actor => ({ id: user.id, aal: 'aal2' });
/** The user just confirmed their password (or signed in): the portal's 423 flow succeeded. */
export const confirmed = (user: { id: string }, aal: 'aal1' | 'aal2' = 'aal1'): Actor => ({
  id: user.id,
  aal,
  passwordAt: new Date(),
});
/** A staff member impersonating the user (always aal1 in real tokens; aal2 tests the rule alone). */
export const impersonating = (user: { id: string }, aal: 'aal1' | 'aal2' = 'aal1'): Actor => ({
  id: user.id,
  aal,
  impersonation: true,
});

let savepointCounter = 0;

/** SQLSTATE of "current transaction is aborted, commands ignored until end of block". */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * Runs fn as the actor would run over the API: `set local role authenticated|anon` and the
 * request's JWT claims, so RLS, grants and auth.uid() apply exactly as through PostgREST.
 *
 * Inside withRollback it nests a savepoint: on success the actor's writes stay visible to the
 * rest of the test (and are rolled back with it); on failure the savepoint is rolled back so the
 * transaction stays usable, and the error is rethrown for the test to assert. When fn catches
 * an expected failure itself (e.g. `expectRefused(as.query(…))`), the aborted block is rolled
 * back to the savepoint too, so the block's earlier writes are undone. On a client with no
 * transaction it opens one and always rolls it back.
 */
export async function asActor<T>(
  client: pg.ClientBase,
  actor: Actor,
  fn: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  const nested = isInTransaction(client);
  const savepoint = `actor_${++savepointCounter}`;
  await client.query(nested ? `savepoint ${savepoint}` : 'begin');
  try {
    await client.query(`set local role ${actor === null ? 'anon' : 'authenticated'}`);
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify(claimsFor(actor)),
    ]);
    const result = await fn(client);
    if (nested) {
      await client.query(`release savepoint ${savepoint}`).catch(async (error: unknown) => {
        if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) throw error;
        await client.query(`rollback to savepoint ${savepoint}`);
      });
      await client.query(`reset role; select set_config('request.jwt.claims', '', true)`);
    } else {
      await client.query('rollback');
    }
    return result;
  } catch (error) {
    // Rolling back to the savepoint also undoes the SET LOCALs made after it.
    await client.query(nested ? `rollback to savepoint ${savepoint}` : 'rollback');
    if (nested) await client.query(`reset role; select set_config('request.jwt.claims', '', true)`);
    throw error;
  }
}

/** One statement as the actor: the result (rows, rowCount) or the error it raised. */
export function queryAs<T extends pg.QueryResultRow = Record<string, unknown>>(
  client: pg.ClientBase,
  actor: Actor,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResult<T>> {
  return asActor(client, actor, (as) => as.query<T>(sql, params));
}
