import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import pg from 'pg';
import type { DataProvider } from 'ra-core';
import { supabaseDataProvider } from 'ra-supabase-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import ws from 'ws';
import { signToken } from '../src/jwt.ts';
import {
  changeApiSchema,
  holdSchemaLock,
  releaseSchemaLock,
  schemaCacheHasTable,
} from './schema-change.ts';

/**
 * The kiosk talks to the database only through ra-supabase's data provider. This contract test
 * drives that real provider (over supabase-js, the gateway and PostgREST) against a fixture table
 * with row-level security, to pin down what the kiosk can rely on: PostgREST filter operators,
 * sorting, pagination with totals from Content-Range, single-record reads, writes, and RLS.
 */

const env = inject('stackEnv');

interface Note {
  id: number;
  owner_id: string;
  title: string;
  rank: number;
}

// Unique per run: suites share one database and may run in parallel.
const table = `ra_contract_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const alice = randomUUID();
const bob = randomUUID();

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;
// ws's constructor typing lists an `address: null` overload first, which realtime-js's interface
// rejects; the class itself is what supabase-js documents as the Node transport.
const nodeWebSocket = ws as unknown as RealtimeTransport;

const db = new pg.Client({ connectionString: env.DB_URL });

async function userToken(sub: string): Promise<string> {
  return signToken(env.SUPABASE_JWT_SECRET, {
    role: 'authenticated',
    aud: 'authenticated',
    sub,
    exp: Math.floor(Date.now() / 1000) + 600,
  });
}

/** A data provider whose every request carries `bearer` (a user's JWT or the service key). */
function dataProviderFor(apiKey: string, bearer: string): DataProvider {
  const supabaseClient = createClient(env.SUPABASE_URL, apiKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${bearer}` } },
    // Node 20 has no global WebSocket; supabase-js needs a transport even when unused.
    realtime: { transport: nodeWebSocket },
  });
  return supabaseDataProvider({ instanceUrl: env.SUPABASE_URL, apiKey, supabaseClient });
}

async function rowsInDatabase(owner: string): Promise<Note[]> {
  const { rows } = await db.query<Note>(
    `select id::int, owner_id, title, rank from public.${table} where owner_id = $1 order by id`,
    [owner],
  );
  return rows;
}

let asAlice: DataProvider;
let asBob: DataProvider;
let asService: DataProvider;
let aliceNotes: Note[];

beforeAll(async () => {
  await db.connect();
  await holdSchemaLock(db);
  const create = () =>
    db.query(`
    create table public.${table} (
      id bigint generated always as identity primary key,
      owner_id uuid not null default auth.uid(),
      title text not null,
      rank int not null
    );
    create index on public.${table} (owner_id);
    alter table public.${table} enable row level security;
    revoke all on public.${table} from anon;
    grant select, insert, update, delete on public.${table} to authenticated, service_role;
    create policy "Owners can read their notes" on public.${table}
      for select to authenticated using (owner_id = (select auth.uid()));
    create policy "Owners can add notes" on public.${table}
      for insert to authenticated with check (owner_id = (select auth.uid()));
    create policy "Owners can change their notes" on public.${table}
      for update to authenticated using (owner_id = (select auth.uid()))
      with check (owner_id = (select auth.uid()));
    create policy "Owners can remove their notes" on public.${table}
      for delete to authenticated using (owner_id = (select auth.uid()));
  `);
  await changeApiSchema(
    db,
    () => create().then(() => undefined),
    () => schemaCacheHasTable(env, table),
  );
  const titles = [
    'apple pie',
    'banana bread',
    'apple crumble',
    'cherry tart',
    'apple strudel',
    'date loaf',
    'apple sauce',
    'elderberry jam',
    'apple juice',
  ];
  for (const [index, title] of titles.entries()) {
    await db.query(`insert into public.${table} (owner_id, title, rank) values ($1, $2, $3)`, [
      alice,
      title,
      index + 1,
    ]);
  }
  await db.query(
    `insert into public.${table} (owner_id, title, rank) values ($1, 'apple of bob', 4), ($1, 'bob only', 50)`,
    [bob],
  );
  aliceNotes = await rowsInDatabase(alice);

  asAlice = dataProviderFor(env.SUPABASE_ANON_KEY, await userToken(alice));
  asBob = dataProviderFor(env.SUPABASE_ANON_KEY, await userToken(bob));
  asService = dataProviderFor(env.SUPABASE_SERVICE_ROLE_KEY, env.SUPABASE_SERVICE_ROLE_KEY);
});

afterAll(async () => {
  await changeApiSchema(
    db,
    () => db.query(`drop table if exists public.${table}`).then(() => undefined),
    async () => !(await schemaCacheHasTable(env, table)),
  );
  await releaseSchemaLock(db);
  await db.end();
});

const titlesOf = (records: { title?: unknown }[]) => records.map((record) => record.title);

describe('ra-supabase data provider against the local stack', () => {
  it('lists with an ilike filter, a descending sort and a page, totalling from Content-Range', async () => {
    const page = await asAlice.getList<Note>(table, {
      filter: { 'title@ilike': 'apple' },
      sort: { field: 'rank', order: 'DESC' },
      pagination: { page: 2, perPage: 2 },
    });
    // Alice's apples by rank descending: juice 9, sauce 7 | strudel 5, crumble 3 | pie 1.
    expect(titlesOf(page.data)).toEqual(['apple strudel', 'apple crumble']);
    // Bob's "apple of bob" is hidden by RLS, so it does not count either.
    expect(page.total).toBe(5);
  });

  it('applies the default eq operator and comparison operators together', async () => {
    const exact = await asAlice.getList<Note>(table, {
      filter: { rank: 4 },
      sort: { field: 'id', order: 'ASC' },
      pagination: { page: 1, perPage: 10 },
    });
    expect(titlesOf(exact.data)).toEqual(['cherry tart']);

    const ranged = await asAlice.getList<Note>(table, {
      filter: { 'rank@gte': 6, 'title@ilike': 'a' },
      sort: { field: 'title', order: 'ASC' },
      pagination: { page: 1, perPage: 10 },
    });
    expect(titlesOf(ranged.data)).toEqual([
      'apple juice',
      'apple sauce',
      'date loaf',
      'elderberry jam',
    ]);
    expect(ranged.total).toBe(4);
  });

  it('combines alternatives with an @or filter', async () => {
    const result = await asAlice.getList<Note>(table, {
      filter: { '@or': { 'title@ilike': 'cherry', rank: 2 } },
      sort: { field: 'rank', order: 'ASC' },
      pagination: { page: 1, perPage: 10 },
    });
    expect(titlesOf(result.data)).toEqual(['banana bread', 'cherry tart']);
  });

  it('serves the last partial page, and refuses a page past the end with 416', async () => {
    const last = await asAlice.getList<Note>(table, {
      filter: {},
      sort: { field: 'id', order: 'ASC' },
      pagination: { page: 3, perPage: 4 },
    });
    expect(last.data).toEqual(aliceNotes.slice(8));
    expect(last.total).toBe(aliceNotes.length);

    // PostgREST's range check (PGRST103): a list screen left on a page that no longer exists fails.
    await expect(
      asAlice.getList<Note>(table, {
        filter: {},
        sort: { field: 'id', order: 'ASC' },
        pagination: { page: 5, perPage: 4 },
      }),
    ).rejects.toMatchObject({ status: 416 });
  });

  it('lets the service role see every owner’s rows', async () => {
    const result = await asService.getList<Note>(table, {
      filter: { 'title@ilike': 'apple' },
      sort: { field: 'id', order: 'ASC' },
      pagination: { page: 1, perPage: 50 },
    });
    expect(result.total).toBe(6);
    expect(titlesOf(result.data)).toContain('apple of bob');
  });

  it('reads one record, and refuses one that RLS hides', async () => {
    const first = aliceNotes[0]!;
    const { data } = await asAlice.getOne<Note>(table, { id: first.id });
    expect(data).toEqual(first);

    // PostgREST answers 406 when a single object was asked for and RLS leaves none.
    await expect(asBob.getOne<Note>(table, { id: first.id })).rejects.toMatchObject({
      status: 406,
    });
  });

  it('reads many records by id, leaving out those RLS hides', async () => {
    const [bobsNote] = await rowsInDatabase(bob);
    const wanted = [aliceNotes[1]!, aliceNotes[2]!];
    const { data } = await asAlice.getMany<Note>(table, {
      ids: [...wanted.map((note) => note.id), bobsNote!.id],
    });
    expect([...data].sort((a, b) => a.id - b.id)).toEqual(wanted);
  });

  it('creates a record owned by the signed-in user', async () => {
    const { data } = await asBob.create<Note>(table, { data: { title: 'fig roll', rank: 60 } });
    expect(data).toMatchObject({ title: 'fig roll', rank: 60, owner_id: bob });
    expect(typeof data.id).toBe('number');
    expect((await rowsInDatabase(bob)).map((note) => note.title)).toContain('fig roll');
  });

  it('refuses to create a record for someone else', async () => {
    await expect(
      asBob.create<Note>(table, { data: { title: 'forged', rank: 1, owner_id: alice } }),
    ).rejects.toMatchObject({ status: 403 });
    expect((await rowsInDatabase(alice)).map((note) => note.title)).not.toContain('forged');
  });

  it('updates only the changed fields and returns the new record', async () => {
    const note = aliceNotes[3]!;
    const { data } = await asAlice.update<Note>(table, {
      id: note.id,
      data: { ...note, title: 'cherry pie' },
      previousData: note,
    });
    expect(data).toEqual({ ...note, title: 'cherry pie' });
    const [stored] = (await rowsInDatabase(alice)).filter((row) => row.id === note.id);
    expect(stored?.title).toBe('cherry pie');
  });

  it('cannot update a record RLS hides', async () => {
    const [bobsNote] = await rowsInDatabase(bob);
    await expect(
      asAlice.update<Note>(table, {
        id: bobsNote!.id,
        data: { ...bobsNote!, title: 'taken over' },
        previousData: bobsNote!,
      }),
    ).rejects.toMatchObject({ status: 406 });
    const [stored] = (await rowsInDatabase(bob)).filter((row) => row.id === bobsNote!.id);
    expect(stored?.title).toBe(bobsNote!.title);
  });

  it('deletes a record and returns it', async () => {
    const note = aliceNotes[8]!;
    const { data } = await asAlice.delete<Note>(table, { id: note.id, previousData: note });
    expect(data).toEqual(note);
    expect((await rowsInDatabase(alice)).map((row) => row.id)).not.toContain(note.id);
    await expect(asAlice.getOne<Note>(table, { id: note.id })).rejects.toMatchObject({
      status: 406,
    });
  });
});
