import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import pg from 'pg';
import ws from 'ws';
import { signToken } from '../src/jwt.ts';
import type { StackEnv } from '../src/stack.ts';

/**
 * What the Storage contract suites share: users minted straight into auth.users (with access
 * tokens signed as GoTrue would), supabase-js clients acting as them, anon or service role, and
 * uniquely named buckets whose RLS policies each suite writes. Suites share one database and
 * run in parallel, so every name is unique and `drop()` removes what the suite created.
 */

export interface StorageUser {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;

function clientOptions(accessToken?: () => Promise<string>): SupabaseClientOptions<'public'> {
  return {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; ws's typing has an overload realtime-js's interface rejects.
    realtime: { transport: ws as unknown as RealtimeTransport },
    ...(accessToken ? { accessToken } : {}),
  };
}

export function accessToken(
  env: StackEnv,
  sub: string,
  options: { lifetimeSeconds?: number; role?: string } = {},
): Promise<string> {
  return signToken(env.SUPABASE_JWT_SECRET, {
    role: options.role ?? 'authenticated',
    sub,
    aud: 'authenticated',
    exp: Math.floor(Date.now() / 1000) + (options.lifetimeSeconds ?? 600),
  });
}

export class StorageFixture {
  readonly db: pg.Client;
  readonly anon: SupabaseClient;
  readonly service: SupabaseClient;
  /** Unique to this suite, e.g. `st3f9a`; prefix every bucket with it. */
  readonly tag = `st${randomBytes(3).toString('hex')}`;
  private readonly buckets: string[] = [];
  private readonly users: string[] = [];
  private readonly policies: { table: 'objects' | 'buckets'; name: string }[] = [];

  private constructor(
    readonly env: StackEnv,
    db: pg.Client,
  ) {
    this.db = db;
    this.anon = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, clientOptions());
    this.service = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, clientOptions());
  }

  static async create(env: StackEnv): Promise<StorageFixture> {
    const db = new pg.Client({ connectionString: env.DB_URL });
    await db.connect();
    return new StorageFixture(env, db);
  }

  /** A client whose every request carries `token` as its bearer, valid or not. */
  withToken(token: string): SupabaseClient {
    return createClient(
      this.env.SUPABASE_URL,
      this.env.SUPABASE_ANON_KEY,
      clientOptions(async () => token),
    );
  }

  async createUser(label: string): Promise<StorageUser> {
    const id = randomUUID();
    const email = `${this.tag}-${label}@example.com`;
    await this.db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
         email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
         '', now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
      [id, email],
    );
    this.users.push(id);
    const token = await accessToken(this.env, id);
    return { id, email, token, client: this.withToken(token) };
  }

  /** A bucket made over SQL, as a migration would; its name starts with the suite's tag. */
  async createBucket(
    label: string,
    options: { public?: boolean; fileSizeLimit?: number; allowedMimeTypes?: string[] } = {},
  ): Promise<string> {
    const id = `${this.tag}-${label}`;
    await this.db.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
       values ($1, $1, $2, $3, $4)`,
      [
        id,
        options.public ?? false,
        options.fileSizeLimit ?? null,
        options.allowedMimeTypes ?? null,
      ],
    );
    this.buckets.push(id);
    return id;
  }

  /** Records a bucket created through the API so that `drop()` removes it too. */
  adoptBucket(id: string): void {
    this.buckets.push(id);
  }

  /** A policy on storage.objects or storage.buckets, dropped again by `drop()`. */
  async createPolicy(
    table: 'objects' | 'buckets',
    name: string,
    definition: string,
  ): Promise<void> {
    await this.db.query(`create policy "${name}" on storage.${table} ${definition}`);
    this.policies.push({ table, name });
  }

  /** Owners read and write only under a first folder named after their user id. */
  async allowOwnerFolders(bucketId: string): Promise<void> {
    const ownFolder = `bucket_id = '${bucketId}' and (storage.foldername(name))[1] = (select auth.uid()::text)`;
    await this.createPolicy(
      'objects',
      `${bucketId}: owners use their own folder`,
      `for all to authenticated using (${ownFolder}) with check (${ownFolder})`,
    );
  }

  /** The object's row as Storage stores it (read as postgres, past RLS). */
  async objectRow(bucketId: string, name: string) {
    const { rows } = await this.db.query<{
      id: string;
      owner: string | null;
      owner_id: string | null;
      version: string;
      metadata: Record<string, unknown>;
      user_metadata: Record<string, unknown> | null;
    }>(
      `select id, owner, owner_id, version, metadata, user_metadata
         from storage.objects where bucket_id = $1 and name = $2`,
      [bucketId, name],
    );
    return rows[0];
  }

  /**
   * Where the stack keeps an object version's bytes: `<stateDir>/storage/<bucket>/<key>/<version>`,
   * the state dir being the one the global setup started the stack in.
   */
  bytesPath(bucketId: string, name: string, version: string): string {
    return path.join(this.storageRoot(), bucketId, ...name.split('/'), version);
  }

  storageRoot(): string {
    const stateDir = path.resolve(
      process.env.SHORTLANE_TEST_STACK_DIR ?? process.env.STACK_STATE_DIR ?? '.local/test-stack',
    );
    return path.join(stateDir, 'storage');
  }

  async drop(): Promise<void> {
    await this.db.query('begin');
    // Storage refuses direct deletes unless the session says it knows what it is doing.
    await this.db.query(`set local storage.allow_delete_query = 'true'`);
    for (const { table, name } of this.policies) {
      await this.db.query(`drop policy if exists "${name}" on storage.${table}`);
    }
    await this.db.query('delete from storage.objects where bucket_id = any($1)', [this.buckets]);
    await this.db.query('delete from storage.buckets where id = any($1)', [this.buckets]);
    await this.db.query('delete from auth.users where id = any($1)', [this.users]);
    await this.db.query('commit');
    await this.db.end();
  }
}
