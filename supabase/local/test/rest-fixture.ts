import { randomBytes, randomUUID } from 'node:crypto';
import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { signToken } from '../src/jwt.ts';
import type { StackEnv } from '../src/stack.ts';
import {
  changeApiSchema,
  holdSchemaLock,
  releaseSchemaLock,
  schemaCacheHasTable,
} from './schema-change.ts';

/**
 * A small library schema for the PostgREST contract suites: authors and their books, owned by
 * users under row-level security, plus two RPCs. Names are unique per suite because suites share
 * one database and run in parallel; `drop()` removes everything again.
 */

export interface Author {
  id: number;
  owner_id: string;
  name: string;
  bio: string | null;
}

export interface Book {
  id: number;
  owner_id: string;
  author_id: number;
  title: string;
  isbn: string;
  published_year: number | null;
  genre: string | null;
  is_public: boolean;
}

export interface FixtureUser {
  id: string;
  email: string;
  /** An access token as GoTrue would mint it for this user. */
  token: string;
}

export interface RestFixture {
  /** Table and function names, all starting with `contract_<random>_`. */
  authors: string;
  books: string;
  booksSince: string;
  countBooks: string;
  alice: FixtureUser;
  bob: FixtureUser;
  /** Alice's two authors and Bob's one, as inserted. */
  ada: Author;
  alan: Author;
  grace: Author;
  /** Every book, as inserted, in insertion order. */
  seededBooks: Book[];
  db: pg.Client;
  anon: SupabaseClient;
  service: SupabaseClient;
  as(user: FixtureUser): SupabaseClient;
  /** A client whose every request carries `token` as its bearer, valid or not. */
  withToken(token: string): SupabaseClient;
  drop(): Promise<void>;
}

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;

const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  // Node 20 has no global WebSocket; supabase-js needs a transport even when realtime is unused.
  // ws's typing opens with an `address: null` overload that realtime-js's interface rejects.
  realtime: { transport: ws as unknown as RealtimeTransport },
} satisfies SupabaseClientOptions<'public'>;

export function tokenFor(
  env: StackEnv,
  sub: string,
  lifetimeSeconds = 600,
  role = 'authenticated',
): Promise<string> {
  return signToken(env.SUPABASE_JWT_SECRET, {
    role,
    sub,
    aud: 'authenticated',
    exp: Math.floor(Date.now() / 1000) + lifetimeSeconds,
  });
}

async function createUser(db: pg.Client, env: StackEnv, email: string): Promise<FixtureUser> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
       email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '',
       now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
    [id, email],
  );
  return { id, email, token: await tokenFor(env, id) };
}

function schemaSql(names: {
  authors: string;
  books: string;
  booksSince: string;
  countBooks: string;
}) {
  const { authors, books, booksSince, countBooks } = names;
  return `
    create table public.${authors} (
      id bigint generated always as identity primary key,
      owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
      name text not null,
      bio text
    );
    create index on public.${authors} (owner_id);
    create table public.${books} (
      id bigint generated always as identity primary key,
      owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
      author_id bigint not null references public.${authors} (id) on delete cascade,
      title text not null,
      isbn text not null unique,
      published_year int,
      genre text,
      is_public boolean not null default false
    );
    create index on public.${books} (owner_id);
    create index on public.${books} (author_id);

    alter table public.${authors} enable row level security;
    alter table public.${books} enable row level security;
    -- Supabase's default privileges give anon, authenticated and service_role everything; this
    -- project takes writes (and TRUNCATE) away from anon on every table, and so does the fixture
    -- (supabase/tests/core/structure.test.ts checks every table, these included).
    revoke all on public.${authors}, public.${books} from anon, authenticated, service_role;
    grant select on public.${authors}, public.${books} to anon;
    grant select, insert, update, delete on public.${authors}, public.${books}
      to authenticated, service_role;

    create policy "Owners can read their authors" on public.${authors}
      for select to authenticated using ((select auth.uid()) = owner_id);
    create policy "Owners can add authors" on public.${authors}
      for insert to authenticated with check ((select auth.uid()) = owner_id);
    create policy "Owners can change their authors" on public.${authors}
      for update to authenticated using ((select auth.uid()) = owner_id)
      with check ((select auth.uid()) = owner_id);
    create policy "Owners can remove their authors" on public.${authors}
      for delete to authenticated using ((select auth.uid()) = owner_id);

    create policy "Owners can read their books" on public.${books}
      for select to authenticated using ((select auth.uid()) = owner_id);
    create policy "Anyone can read public books" on public.${books}
      for select to anon, authenticated using (is_public);
    create policy "Owners can add books" on public.${books}
      for insert to authenticated with check ((select auth.uid()) = owner_id);
    create policy "Owners can change their books" on public.${books}
      for update to authenticated using ((select auth.uid()) = owner_id)
      with check ((select auth.uid()) = owner_id);
    create policy "Owners can remove their books" on public.${books}
      for delete to authenticated using ((select auth.uid()) = owner_id);

    create function public.${booksSince}(min_year int, only_genre text default null)
    returns setof public.${books}
    language sql stable security invoker set search_path = ''
    as $$
      select * from public.${books} b
      where b.published_year >= min_year and (only_genre is null or b.genre = only_genre)
    $$;
    create function public.${countBooks}(for_author bigint)
    returns int
    language sql stable security invoker set search_path = ''
    as $$ select count(*)::int from public.${books} b where b.author_id = for_author $$;
    grant execute on function public.${booksSince}(int, text), public.${countBooks}(bigint)
      to anon, authenticated, service_role;
  `;
}

async function insertAuthor(
  db: pg.Client,
  owner: FixtureUser,
  table: string,
  name: string,
  bio: string | null,
) {
  const { rows } = await db.query<Author>(
    `insert into public.${table} (owner_id, name, bio) values ($1, $2, $3)
     returning id::int, owner_id, name, bio`,
    [owner.id, name, bio],
  );
  return rows[0]!;
}

/** PostgREST caches the schema; it serves new tables (and the RPC) only after a reload. */
async function isServed(
  env: StackEnv,
  names: { books: string; authors: string; countBooks: string },
): Promise<boolean> {
  const headers = {
    apikey: env.SUPABASE_SERVICE_ROLE_KEY,
    'content-type': 'application/json',
  };
  const embedded = await fetch(
    `${env.SUPABASE_URL}/rest/v1/${names.books}?select=id,${names.authors}(id)&limit=1`,
    { headers },
  );
  const rpc = await fetch(`${env.SUPABASE_URL}/rest/v1/rpc/${names.countBooks}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ for_author: 0 }),
  });
  await Promise.all([embedded.body?.cancel(), rpc.body?.cancel()]);
  return embedded.ok && rpc.ok;
}

export async function createRestFixture(env: StackEnv): Promise<RestFixture> {
  const prefix = `contract_${randomBytes(5).toString('hex')}`;
  const names = {
    authors: `${prefix}_authors`,
    books: `${prefix}_books`,
    booksSince: `${prefix}_books_since`,
    countBooks: `${prefix}_count_books`,
  };
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  const createdUsers: string[] = [];
  const drop = async () => {
    await changeApiSchema(
      db,
      async () => {
        await db.query(`
          drop function if exists public.${names.booksSince}(int, text);
          drop function if exists public.${names.countBooks}(bigint);
          drop table if exists public.${names.books};
          drop table if exists public.${names.authors};`);
      },
      async () => !(await schemaCacheHasTable(env, names.books)),
    );
    await db.query('delete from auth.users where id = any($1::uuid[])', [createdUsers]);
    await releaseSchemaLock(db);
    await db.end();
  };
  await holdSchemaLock(db);
  try {
    await changeApiSchema(
      db,
      () => db.query(schemaSql(names)).then(() => undefined),
      () => isServed(env, names),
    );
    const alice = await createUser(db, env, `alice.${prefix}@example.com`);
    const bob = await createUser(db, env, `bob.${prefix}@example.com`);
    createdUsers.push(alice.id, bob.id);

    const ada = await insertAuthor(db, alice, names.authors, 'Ada Lovelace', 'Analyst');
    const alan = await insertAuthor(db, alice, names.authors, 'Alan Turing', null);
    const grace = await insertAuthor(db, bob, names.authors, 'Grace Hopper', 'Compilers');
    const books: [FixtureUser, Author, string, string, number | null, string | null, boolean][] = [
      [alice, ada, 'Sketch of the Analytical Engine', 'isbn-ada-1', 1842, 'math', false],
      [alice, ada, 'Notes by the Translator', 'isbn-ada-2', 1843, 'math', true],
      [alice, alan, 'On Computable Numbers', 'isbn-alan-1', 1936, 'math', false],
      [
        alice,
        alan,
        'Computing Machinery and Intelligence',
        'isbn-alan-2',
        1950,
        'philosophy',
        false,
      ],
      [alice, alan, 'Untitled Draft', 'isbn-alan-3', null, null, false],
      [bob, grace, 'A Manual of Operation', 'isbn-grace-1', 1946, 'engineering', true],
      [bob, grace, 'The Education of a Computer', 'isbn-grace-2', 1952, 'engineering', false],
    ];
    const seededBooks: Book[] = [];
    for (const [owner, author, title, isbn, year, genre, isPublic] of books) {
      const { rows } = await db.query<Book>(
        `insert into public.${names.books}
           (owner_id, author_id, title, isbn, published_year, genre, is_public)
         values ($1, $2, $3, $4, $5, $6, $7)
         returning id::int, owner_id, author_id::int, title, isbn, published_year, genre, is_public`,
        [owner.id, author.id, title, isbn, year, genre, isPublic],
      );
      seededBooks.push(rows[0]!);
    }

    const withToken = (token: string) =>
      createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
        ...clientOptions,
        accessToken: async () => token,
      });
    return {
      ...names,
      alice,
      bob,
      ada,
      alan,
      grace,
      seededBooks,
      db,
      anon: createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, clientOptions),
      service: createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, clientOptions),
      as: (user) => withToken(user.token),
      withToken,
      drop,
    };
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
}
