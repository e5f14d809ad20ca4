import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { StorageFixture, type StorageUser } from './storage-fixture.ts';

/**
 * Buckets through supabase-js: the ones supabase/config.toml declares exist once the stack is
 * up (as after `supabase start`), the service role manages buckets, and everyone else only as
 * far as RLS on storage.buckets allows (by default: not at all).
 */

const env = inject('stackEnv');
let fx: StorageFixture;
let alice: StorageUser;

beforeAll(async () => {
  fx = await StorageFixture.create(env);
  alice = await fx.createUser('alice');
});

afterAll(async () => {
  await fx?.drop();
});

describe('buckets from supabase/config.toml', () => {
  it('exist with the declared settings, sizes read the way the CLI reads them', async () => {
    const avatars = await fx.service.storage.getBucket('avatars');
    expect(avatars.error).toBeNull();
    expect(avatars.data).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      public: true,
      file_size_limit: 2 * 1024 * 1024,
      allowed_mime_types: ['image/png', 'image/jpeg'],
    });
    const imports = await fx.service.storage.getBucket('imports');
    expect(imports.data).toMatchObject({ public: false, file_size_limit: 10 * 1024 * 1024 });
    expect(imports.data?.allowed_mime_types).toContain('text/csv');
    const exports = await fx.service.storage.getBucket('exports');
    expect(exports.data).toMatchObject({
      public: false,
      file_size_limit: 50 * 1024 * 1024,
      allowed_mime_types: null,
    });
  });
});

describe('managing buckets with the service role', () => {
  it('creates, reads, lists, updates and deletes a bucket', async () => {
    const storage = fx.service.storage;
    const id = `${fx.tag}-managed`;
    fx.adoptBucket(id);
    const created = await storage.createBucket(id, {
      public: false,
      fileSizeLimit: '1MB',
      allowedMimeTypes: ['image/*'],
    });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ name: id });

    const bucket = await storage.getBucket(id);
    expect(bucket.data).toMatchObject({
      id,
      name: id,
      owner: null,
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/*'],
    });

    const listed = await storage.listBuckets({ search: fx.tag });
    expect(listed.data?.map((b) => b.id)).toContain(id);
    expect(listed.data?.find((b) => b.id === id)).toMatchObject({ type: 'STANDARD' });

    const updated = await storage.updateBucket(id, { public: true, fileSizeLimit: 2048 });
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
    expect((await storage.getBucket(id)).data).toMatchObject({
      public: true,
      file_size_limit: 2048,
    });

    const removed = await storage.deleteBucket(id);
    expect(removed).toEqual({ data: { message: 'Successfully deleted' }, error: null });
    const gone = await storage.getBucket(id);
    expect(gone.error).toMatchObject({
      status: 400,
      statusCode: '404',
      message: 'Bucket not found',
    });
  });

  it('answers a taken name with Duplicate', async () => {
    const { error } = await fx.service.storage.createBucket('avatars', { public: true });
    expect(error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
  });

  it('refuses limits above the global one, bad sizes and bad MIME types', async () => {
    const storage = fx.service.storage;
    const tooBig = await storage.createBucket(`${fx.tag}-huge`, {
      public: false,
      fileSizeLimit: '1GB',
    });
    expect(tooBig.error).toMatchObject({ statusCode: '413' });
    const badSize = await storage.createBucket(`${fx.tag}-odd`, {
      public: false,
      fileSizeLimit: 'lots',
    });
    expect(badSize.error).toMatchObject({ statusCode: '400' });
    const badMime = await storage.createBucket(`${fx.tag}-mime`, {
      public: false,
      allowedMimeTypes: ['not a mime type'],
    });
    expect(badMime.error).toMatchObject({
      statusCode: '415',
      message: 'mime type not a mime type is not supported',
    });
    const { data } = await storage.listBuckets({ search: fx.tag });
    expect(data?.map((b) => b.id) ?? []).not.toContain(`${fx.tag}-huge`);
  });

  it('refuses to delete a bucket with objects, and empties it first', async () => {
    const storage = fx.service.storage;
    const id = await fx.createBucket('full');
    await storage.from(id).upload('a/one.txt', 'one', { contentType: 'text/plain' });
    await storage.from(id).upload('two.txt', 'two', { contentType: 'text/plain' });
    const version = (await fx.objectRow(id, 'a/one.txt'))!.version;
    const file = fx.bytesPath(id, 'a/one.txt', version);
    expect(fs.existsSync(file)).toBe(true);

    const refused = await storage.deleteBucket(id);
    expect(refused.error).toMatchObject({
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });

    const emptied = await storage.emptyBucket(id);
    expect(emptied.error).toBeNull();
    expect((await storage.from(id).list()).data).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);

    expect((await storage.deleteBucket(id)).error).toBeNull();
  });
});

describe('buckets and RLS', () => {
  it('a user without bucket policies sees no buckets and cannot create one', async () => {
    const listed = await alice.client.storage.listBuckets();
    expect(listed.error).toBeNull();
    expect(listed.data?.map((b) => b.id)).not.toContain('avatars');

    const created = await alice.client.storage.createBucket(`${fx.tag}-mine`);
    expect(created.error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });

    const read = await alice.client.storage.getBucket('avatars');
    expect(read.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });

  it('policies on storage.buckets let a user create and see their own buckets', async () => {
    const prefix = `${fx.tag}-own-`;
    await fx.createPolicy(
      'buckets',
      `${fx.tag}: users create their buckets`,
      `for insert to authenticated
         with check (id like '${prefix}%' and owner = (select auth.uid()))`,
    );
    await fx.createPolicy(
      'buckets',
      `${fx.tag}: users see their buckets`,
      `for select to authenticated using (owner = (select auth.uid()))`,
    );
    const id = `${prefix}alice`;
    fx.adoptBucket(id);

    const created = await alice.client.storage.createBucket(id, { public: false });
    expect(created.error).toBeNull();
    const mine = await alice.client.storage.getBucket(id);
    expect(mine.data).toMatchObject({ id, owner: alice.id });
    expect((await alice.client.storage.listBuckets()).data?.map((b) => b.id)).toEqual([id]);

    const elsewhere = await alice.client.storage.createBucket(`${fx.tag}-not-allowed`);
    expect(elsewhere.error).toMatchObject({ statusCode: '403' });
    // No delete policy: to the user the bucket cannot be found for deletion.
    const removal = await alice.client.storage.deleteBucket(id);
    expect(removal.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
  });

  it('direct SQL deletes are refused, as in Supabase (bytes would be orphaned)', async () => {
    const id = await fx.createBucket('guarded');
    await expect(fx.db.query('delete from storage.buckets where id = $1', [id])).rejects.toThrow(
      'Direct deletion from storage tables is not allowed',
    );
  });
});
