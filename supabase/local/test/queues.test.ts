import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Supabase Queues on the local stack: pgmq's SQL API (supabase/local/sql/extensions) and the
 * pgmq_public wrappers (migration 20261122002300_scheduled_work.sql).
 */
const env = inject('stackEnv');
const db = new pg.Pool({ connectionString: env.DB_URL, max: 4 });
db.on('error', () => {});
const queue = `jobs_${randomUUID().slice(0, 8)}`;

interface Message {
  msg_id: string;
  read_ct: number;
  enqueued_at: Date;
  vt: Date;
  message: Record<string, unknown>;
}

const rows = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
  (await db.query<T>(sql, values)).rows;
const read = (vt: number, qty: number) =>
  rows<Message>(`select * from pgmq.read($1, $2, $3)`, [queue, vt, qty]);
const ids = (messages: { msg_id: string }[]) => messages.map((message) => message.msg_id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  await db.query(`select pgmq.create($1)`, [queue]);
});

afterAll(async () => {
  await db.query(`select pgmq.drop_queue($1)`, [queue]).catch(() => undefined);
  await db.end();
});

describe('pgmq', () => {
  it('keeps each queue in pgmq.q_<name> and its archive in pgmq.a_<name>', async () => {
    const columns = await rows<{ table_name: string; columns: string[] }>(
      `select table_name, array_agg(column_name::text order by ordinal_position) as columns
       from information_schema.columns where table_schema = 'pgmq' and table_name in ($1, $2)
       group by table_name order by table_name`,
      [`a_${queue}`, `q_${queue}`],
    );
    expect(columns).toEqual([
      {
        table_name: `a_${queue}`,
        columns: ['msg_id', 'read_ct', 'enqueued_at', 'archived_at', 'vt', 'message'],
      },
      { table_name: `q_${queue}`, columns: ['msg_id', 'read_ct', 'enqueued_at', 'vt', 'message'] },
    ]);
    const listed = await rows<{ queue_name: string; is_partitioned: boolean }>(
      `select queue_name, is_partitioned, is_unlogged from pgmq.list_queues() where queue_name = $1`,
      [queue],
    );
    expect(listed).toEqual([{ queue_name: queue, is_partitioned: false, is_unlogged: false }]);
  });

  it('hides a read message until its visibility timeout passes, counting each read', async () => {
    const [sent] = await rows<{ send: string }>(`select * from pgmq.send($1, '{"n": 1}')`, [queue]);
    const batch = await rows<{ send_batch: string }>(
      `select * from pgmq.send_batch($1, array['{"n": 2}', '{"n": 3}']::jsonb[])`,
      [queue],
    );
    const [delayed] = await rows<{ send: string }>(`select * from pgmq.send($1, '{"n": 4}', 1)`, [
      queue,
    ]);
    const visible = [sent!.send, ...batch.map((row) => row.send_batch)];
    expect(batch).toHaveLength(2);

    const first = await read(1, 10);
    expect(ids(first)).toEqual(visible);
    expect(first.map((message) => [message.read_ct, message.message])).toEqual([
      [1, { n: 1 }],
      [1, { n: 2 }],
      [1, { n: 3 }],
    ]);
    expect(first[0]!.vt.getTime()).toBeGreaterThan(Date.now() - 200);

    // Read messages and the delayed one are invisible for now.
    expect(await read(1, 10)).toEqual([]);
    await sleep(1_200);
    const again = await read(30, 2);
    expect(ids(again)).toEqual(visible.slice(0, 2));
    expect(again.map((message) => message.read_ct)).toEqual([2, 2]);
    const rest = await read(30, 10);
    expect(ids(rest)).toEqual([visible[2], delayed!.send]);
    expect(rest.map((message) => message.read_ct)).toEqual([2, 1]);

    // set_vt brings one back at once; pop takes it for good.
    const [reset] = await rows<Message>(`select * from pgmq.set_vt($1, $2, 0)`, [
      queue,
      visible[0],
    ]);
    expect(reset!.msg_id).toBe(visible[0]);
    const [popped] = await rows<Message>(`select * from pgmq.pop($1)`, [queue]);
    expect(popped).toMatchObject({ msg_id: visible[0], read_ct: 2, message: { n: 1 } });
    expect(await rows(`select * from pgmq.pop($1)`, [queue])).toEqual([]);

    // archive moves a message to the archive; delete removes one; neither finds it twice.
    const archive = `select pgmq.archive($1, $2::bigint) as done`;
    expect(await rows(archive, [queue, visible[1]])).toEqual([{ done: true }]);
    expect(await rows(archive, [queue, visible[1]])).toEqual([{ done: false }]);
    const [archived] = await rows<{ msg_id: string; read_ct: number; archived: boolean }>(
      `select msg_id, read_ct, archived_at is not null as archived from pgmq.${`a_${queue}`}`,
    );
    expect(archived).toEqual({ msg_id: visible[1], read_ct: 2, archived: true });
    const remove = `select pgmq.delete($1, $2::bigint) as done`;
    expect(await rows(remove, [queue, visible[2]])).toEqual([{ done: true }]);
    expect(await rows(remove, [queue, visible[2]])).toEqual([{ done: false }]);

    const [metrics] = await rows<{ queue_length: string; total_messages: string }>(
      `select queue_length, total_messages from pgmq.metrics($1)`,
      [queue],
    );
    expect(metrics).toEqual({ queue_length: '1', total_messages: '4' });
  });

  it('refuses queue names that cannot be table names', async () => {
    await expect(db.query(`select pgmq.create('bad;name')`)).rejects.toThrow(
      'queue name contains invalid characters',
    );
    await expect(db.query(`select pgmq.create($1)`, ['q'.repeat(48)])).rejects.toThrow(
      'queue name is too long',
    );
  });
});

describe('pgmq_public', () => {
  it('lets the service role work a queue, and no browser role', async () => {
    const client = await db.connect();
    try {
      await client.query('begin');
      await client.query('set local role service_role');
      const sent = await client.query<{ send: string }>(
        `select * from pgmq_public.send($1, '{"task": "renew"}')`,
        [queue],
      );
      const batch = await client.query<{ send_batch: string }>(
        `select * from pgmq_public.send_batch($1, array['{"task": "a"}', '{"task": "b"}']::jsonb[])`,
        [queue],
      );
      const read = await client.query<Message>(`select * from pgmq_public.read($1, 30, 10)`, [
        queue,
      ]);
      expect(read.rows.map((message) => message.message)).toContainEqual({ task: 'renew' });
      const id = sent.rows[0]!.send;
      expect(
        (await client.query(`select pgmq_public.archive($1, $2) as done`, [queue, id])).rows,
      ).toEqual([{ done: true }]);
      const [first, second] = batch.rows.map((row) => row.send_batch);
      expect(
        (await client.query(`select pgmq_public.delete($1, $2) as done`, [queue, first])).rows,
      ).toEqual([{ done: true }]);
      await client.query(`select pgmq.set_vt($1, $2, 0)`, [queue, second]);
      const popped = await client.query<Message>(`select * from pgmq_public.pop($1)`, [queue]);
      expect(popped.rows.map((message) => message.msg_id)).toEqual([second]);
      await client.query('rollback');
    } finally {
      client.release();
    }

    const privileges = await rows<{ role: string; send: boolean; read: boolean }>(
      `select r.role,
         has_function_privilege(r.role, 'pgmq_public.send(text, jsonb, integer)', 'execute') as send,
         has_function_privilege(r.role, 'pgmq_public.read(text, integer, integer)', 'execute') as read
       from unnest(array['anon', 'authenticated', 'service_role']) as r(role)`,
    );
    expect(privileges).toEqual([
      { role: 'anon', send: false, read: false },
      { role: 'authenticated', send: false, read: false },
      { role: 'service_role', send: true, read: true },
    ]);
  });
});
