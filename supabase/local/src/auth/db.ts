import type pg from 'pg';

/** Anything that runs queries: the pool, or a client inside a transaction. */
export type Db = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * Thrown inside a transaction to keep its writes but still fail the request — GoTrue's
 * NewCommitWithError, used when refresh-token reuse revokes a whole token family.
 */
export class CommitThenFail extends Error {
  constructor(readonly failure: Error) {
    super(failure.message);
  }
}

export async function transaction<T>(
  pool: pg.Pool,
  work: (tx: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    if (error instanceof CommitThenFail) {
      await client.query('commit');
      throw error.failure;
    }
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** GoTrue keeps every row in the single default instance. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
