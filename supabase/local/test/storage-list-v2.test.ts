import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { StorageFixture, type StorageUser } from './storage-fixture.ts';

/**
 * supabase-js's `listV2` (POST /object/list-v2/:bucket): a prefix matched as plain text, keys
 * grouped into folders with `with_delimiter`, pages that continue from `nextCursor`, and
 * ordering by name or time — under RLS, with the answer shaped as Storage's.
 */

const env = inject('stackEnv');
let fx: StorageFixture;
let alice: StorageUser;
let bob: StorageUser;
let bucket: string;
/** Alice's folder for this suite, `<alice id>/v2/`. */
let root: string;

/** The files, oldest first (their created_at is set one minute apart in this order). */
const FILES = ['c/d/e.txt', 'b.txt', 'Z.txt', 'b/2.txt', 'a.txt', 'b-side.txt', 'b/1.txt'];

type ListV2Options = Parameters<ReturnType<SupabaseClient['storage']['from']>['listV2']>[0];

async function listAll(client: SupabaseClient, options: ListV2Options) {
  const pages: { folders: string[]; objects: string[]; hasNext: boolean }[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await client.storage.from(bucket).listV2({ ...options, cursor });
    expect(error).toBeNull();
    pages.push({
      folders: data!.folders.map((folder) => folder.name.slice(root.length)),
      objects: data!.objects.map((object) => object.name.slice(root.length)),
      hasNext: data!.hasNext,
    });
    cursor = data!.hasNext ? data!.nextCursor : undefined;
    expect(pages.length).toBeLessThan(20);
  } while (cursor);
  return pages;
}

beforeAll(async () => {
  fx = await StorageFixture.create(env);
  alice = await fx.createUser('alice');
  bob = await fx.createUser('bob');
  bucket = await fx.createBucket('listing');
  await fx.allowOwnerFolders(bucket);
  root = `${alice.id}/v2/`;
  for (const [minute, file] of FILES.entries()) {
    const { error } = await alice.client.storage
      .from(bucket)
      .upload(`${root}${file}`, file, { contentType: 'text/plain' });
    expect(error).toBeNull();
    await fx.db.query(
      `update storage.objects set created_at = timestamptz '2026-01-01 00:00Z' + $3 * interval '1 minute'
        where bucket_id = $1 and name = $2`,
      [bucket, `${root}${file}`, minute],
    );
  }
});

afterAll(async () => {
  await fx?.drop();
});

describe('listV2', () => {
  it('groups keys under a folder prefix into folders and objects, in byte order', async () => {
    const { data, error } = await alice.client.storage
      .from(bucket)
      .listV2({ prefix: root, with_delimiter: true });
    expect(error).toBeNull();
    expect(data?.hasNext).toBe(false);
    expect(data?.nextCursor).toBeUndefined();
    expect(data?.folders).toEqual([
      {
        key: 'b',
        name: `${root}b/`,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      },
      expect.objectContaining({ key: 'c', name: `${root}c/`, id: null }),
    ]);
    expect(data?.objects.map((object) => object.name)).toEqual(
      ['Z.txt', 'a.txt', 'b-side.txt', 'b.txt'].map((file) => `${root}${file}`),
    );
    expect(data?.objects[1]).toMatchObject({
      key: 'a.txt',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: '2026-01-01T00:04:00.000Z',
      metadata: { size: 5, mimetype: 'text/plain' },
    });
  });

  it('matches the prefix as text, not as a folder, with or without the delimiter', async () => {
    const grouped = await alice.client.storage
      .from(bucket)
      .listV2({ prefix: `${root}b`, with_delimiter: true });
    expect(grouped.data?.folders.map((folder) => folder.name)).toEqual([`${root}b/`]);
    expect(grouped.data?.objects.map((object) => object.name)).toEqual([
      `${root}b-side.txt`,
      `${root}b.txt`,
    ]);

    const flat = await alice.client.storage.from(bucket).listV2({ prefix: `${root}b` });
    expect(flat.data?.folders).toEqual([]);
    expect(flat.data?.objects.map((object) => object.name)).toEqual(
      ['b-side.txt', 'b.txt', 'b/1.txt', 'b/2.txt'].map((file) => `${root}${file}`),
    );
    expect(flat.data?.objects[0]).not.toHaveProperty('key');
  });

  it('pages through a listing with the cursor, folders and objects in one sequence', async () => {
    const first = await alice.client.storage
      .from(bucket)
      .listV2({ prefix: root, with_delimiter: true, limit: 2 });
    expect(first.data).toMatchObject({ hasNext: true, nextCursorKey: `${root}a.txt` });

    expect(await listAll(alice.client, { prefix: root, with_delimiter: true, limit: 2 })).toEqual([
      { folders: [], objects: ['Z.txt', 'a.txt'], hasNext: true },
      { folders: [], objects: ['b-side.txt', 'b.txt'], hasNext: true },
      { folders: ['b/', 'c/'], objects: [], hasNext: false },
    ]);
    const flat = await listAll(alice.client, { prefix: root, limit: 3 });
    expect(flat.flatMap((page) => page.objects)).toEqual([...FILES].sort());
    expect(flat.map((page) => page.hasNext)).toEqual([true, true, false]);
  });

  it('sorts by name descending, and by creation time with folders at their oldest object', async () => {
    const byNameDesc = await listAll(alice.client, {
      prefix: root,
      with_delimiter: true,
      limit: 4,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(byNameDesc).toEqual([
      { folders: ['c/', 'b/'], objects: ['b.txt', 'b-side.txt'], hasNext: true },
      { folders: [], objects: ['a.txt', 'Z.txt'], hasNext: false },
    ]);

    // Oldest first: c/ (minute 0), b.txt (1), Z.txt (2), b/ (3, its b/2.txt), a.txt, b-side.txt.
    const byCreation = await listAll(alice.client, {
      prefix: root,
      with_delimiter: true,
      limit: 2,
      sortBy: { column: 'created_at', order: 'asc' },
    });
    expect(byCreation).toEqual([
      { folders: ['c/'], objects: ['b.txt'], hasNext: true },
      { folders: ['b/'], objects: ['Z.txt'], hasNext: true },
      { folders: [], objects: ['a.txt', 'b-side.txt'], hasNext: false },
    ]);

    const newestFirst = await listAll(alice.client, {
      prefix: root,
      limit: 5,
      sortBy: { column: 'created_at', order: 'desc' },
    });
    expect(newestFirst.flatMap((page) => page.objects)).toEqual([...FILES].reverse());
  });

  it('lists only what RLS lets the caller see', async () => {
    const { data, error } = await bob.client.storage
      .from(bucket)
      .listV2({ prefix: root, with_delimiter: true });
    expect(error).toBeNull();
    expect(data).toEqual({ hasNext: false, folders: [], objects: [] });
  });

  it("refuses what Storage's schema refuses", async () => {
    const request = (body: unknown) =>
      fetch(`${env.SUPABASE_URL}/storage/v1/object/list-v2/${bucket}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      }));

    expect(await request({ sortBy: { order: 'asc' } })).toEqual({
      status: 400,
      body: {
        statusCode: '400',
        code: 'InvalidRequest',
        error: 'Bad Request',
        message: "body/sortBy must have required property 'column'",
      },
    });
    expect((await request({ limit: 0 })).body.message).toBe('body/limit must be >= 1');
    expect((await request({ cursor: Buffer.from('x:1').toString('base64') })).body).toMatchObject({
      code: 'InvalidParameter',
      message: 'Invalid Parameter continuation token',
    });
  });
});
