import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { StorageFixture, type StorageUser } from './storage-fixture.ts';

/**
 * Objects through supabase-js's storage client, the way the apps use it: uploads (multipart
 * and raw), downloads, RLS deciding who reads and writes, bucket limits, listing, move, copy and
 * removal — each answer compared with what Supabase Storage returns.
 */

const env = inject('stackEnv');
let fx: StorageFixture;
let alice: StorageUser;
let bob: StorageUser;
/** Private; owners use the folder named after them. */
let docs: string;
/** Public, images only, at most 1 KiB per file; owners use their folder. */
let pictures: string;

const md5 = (data: string | Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;
/** A real 1×1 PNG. */
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** `size` bytes that begin as a PNG does (the pictures bucket checks the signature). */
const png = (size: number) => Buffer.concat([PNG_BYTES.subarray(0, 8), Buffer.alloc(size - 8, 7)]);

beforeAll(async () => {
  fx = await StorageFixture.create(env);
  alice = await fx.createUser('alice');
  bob = await fx.createUser('bob');
  docs = await fx.createBucket('docs');
  pictures = await fx.createBucket('pictures', {
    public: true,
    fileSizeLimit: 1024,
    allowedMimeTypes: ['image/png', 'image/jpeg'],
  });
  await fx.allowOwnerFolders(docs);
  await fx.allowOwnerFolders(pictures);
});

afterAll(async () => {
  await fx?.drop();
});

describe('upload and download', () => {
  it('stores a Blob (sent as a multipart form) for its owner and serves it back', async () => {
    const path = `${alice.id}/notes/hello.txt`;
    const upload = await alice.client.storage
      .from(docs)
      .upload(path, new Blob(['hello storage'], { type: 'text/plain' }));
    expect(upload.error).toBeNull();
    expect(upload.data).toEqual({
      path,
      fullPath: `${docs}/${path}`,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const row = await fx.objectRow(docs, path);
    expect(row).toMatchObject({
      id: upload.data?.id,
      owner: alice.id,
      owner_id: alice.id,
      metadata: {
        size: 13,
        contentLength: 13,
        mimetype: 'text/plain',
        cacheControl: 'max-age=3600',
        eTag: md5('hello storage'),
        httpStatusCode: 200,
      },
    });
    expect(fs.existsSync(fx.bytesPath(docs, path, row!.version))).toBe(true);

    const download = await alice.client.storage.from(docs).download(path);
    expect(download.error).toBeNull();
    expect(await download.data?.text()).toBe('hello storage');
  });

  it('stores a raw body with its content type, cache control and user metadata', async () => {
    const path = `${alice.id}/report.csv`;
    const body = Buffer.from('a,b\n1,2\n');
    const upload = await alice.client.storage.from(docs).upload(path, body, {
      contentType: 'text/csv',
      cacheControl: '60',
      metadata: { source: 'test' },
    });
    expect(upload.error).toBeNull();

    const response = await fetch(`${env.SUPABASE_URL}/storage/v1/object/${docs}/${path}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(response.headers.get('cache-control')).toBe('max-age=60');
    expect(response.headers.get('etag')).toBe(md5(body));
    expect(response.headers.get('content-length')).toBe(String(body.length));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(body);

    const info = await alice.client.storage.from(docs).info(path);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: path,
      bucketId: docs,
      size: body.length,
      contentType: 'text/csv',
      cacheControl: 'max-age=60',
      etag: md5(body),
      metadata: { source: 'test' },
    });
  });

  it("describes an upload without user metadata with Storage's empty metadata object", async () => {
    const path = `${alice.id}/plain.txt`;
    const bucket = alice.client.storage.from(docs);
    expect((await bucket.upload(path, 'plain', { contentType: 'text/plain' })).error).toBeNull();
    const info = await bucket.info(path);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: path, size: 5, metadata: {} });
    expect((await fx.objectRow(docs, path))?.user_metadata).toEqual({});
  });

  it('serves bytes with nosniff on every read route, so a browser keeps to the stored type', async () => {
    const page = `${alice.id}/page.html`;
    const upload = await alice.client.storage
      .from(docs)
      .upload(page, '<script>alert(1)</script>', { contentType: 'text/html' });
    expect(upload.error).toBeNull();
    const auth = { authorization: `Bearer ${alice.token}` };
    const picture = `${alice.id}/nosniff.png`;
    const stored = await alice.client.storage
      .from(pictures)
      .upload(picture, PNG_BYTES, { contentType: 'image/png' });
    expect(stored.error).toBeNull();

    const reads: [string, RequestInit][] = [
      [`object/${docs}/${page}`, { headers: auth }],
      [`object/authenticated/${docs}/${page}`, { headers: auth }],
      [`object/${docs}/${page}`, { headers: { ...auth, range: 'bytes=0-3' } }],
      [`object/authenticated/${docs}/${page}`, { method: 'HEAD', headers: auth }],
      [`object/public/${pictures}/${picture}`, {}],
    ];
    for (const [path, init] of reads) {
      const response = await fetch(`${env.SUPABASE_URL}/storage/v1/${path}`, init);
      expect(response.status, path).toBeLessThan(300);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      await response.arrayBuffer();
    }
    const html = await fetch(`${env.SUPABASE_URL}/storage/v1/object/${docs}/${page}`, {
      headers: auth,
    });
    expect(html.headers.get('content-type')).toBe('text/plain');
  });

  it('serves a byte range', async () => {
    const path = `${alice.id}/range.txt`;
    await alice.client.storage.from(docs).upload(path, 'abcdefghij', { contentType: 'text/plain' });
    const response = await fetch(`${env.SUPABASE_URL}/storage/v1/object/${docs}/${path}`, {
      headers: { authorization: `Bearer ${alice.token}`, range: 'bytes=2-4' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await response.text()).toBe('cde');
  });

  it('answers a second upload to the same key with Duplicate, unless upsert is asked', async () => {
    const path = `${alice.id}/twice.txt`;
    const bucket = alice.client.storage.from(docs);
    expect((await bucket.upload(path, 'first', { contentType: 'text/plain' })).error).toBeNull();
    const firstVersion = (await fx.objectRow(docs, path))!.version;

    const again = await bucket.upload(path, 'second', { contentType: 'text/plain' });
    expect(again.error).toMatchObject({
      name: 'StorageApiError',
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    });

    const upsert = await bucket.upload(path, 'second', { contentType: 'text/plain', upsert: true });
    expect(upsert.error).toBeNull();
    expect(await (await bucket.download(path)).data?.text()).toBe('second');
    const secondVersion = (await fx.objectRow(docs, path))!.version;
    expect(secondVersion).not.toBe(firstVersion);
    // The replaced version's bytes are gone; the current ones are in place.
    expect(fs.existsSync(fx.bytesPath(docs, path, firstVersion))).toBe(false);
    expect(fs.existsSync(fx.bytesPath(docs, path, secondVersion))).toBe(true);

    const update = await bucket.update(path, 'third', { contentType: 'text/plain' });
    expect(update.error).toBeNull();
    expect(await (await bucket.download(path)).data?.text()).toBe('third');
  });
});

describe('row-level security decides', () => {
  const path = () => `${alice.id}/private.txt`;

  beforeAll(async () => {
    const { error } = await alice.client.storage
      .from(docs)
      .upload(path(), 'for alice only', { contentType: 'text/plain' });
    expect(error).toBeNull();
  });

  it('a stranger cannot read the object, nor find it in a listing', async () => {
    const download = await bob.client.storage.from(docs).download(path());
    expect(download.error).toMatchObject({
      status: 400,
      statusCode: '404',
      message: 'Object not found',
    });

    const list = await bob.client.storage.from(docs).list(alice.id);
    expect(list.error).toBeNull();
    expect(list.data).toEqual([]);
  });

  it('a stranger cannot write into the owner folder, overwrite or remove the object', async () => {
    const bucket = bob.client.storage.from(docs);
    const intrusion = await bucket.upload(`${alice.id}/planted.txt`, 'x', {
      contentType: 'text/plain',
    });
    expect(intrusion.error).toMatchObject({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect(await fx.objectRow(docs, `${alice.id}/planted.txt`)).toBeUndefined();

    const overwrite = await bucket.upload(path(), 'x', { contentType: 'text/plain', upsert: true });
    expect(overwrite.error).toMatchObject({ statusCode: '403' });

    const removal = await bucket.remove([path()]);
    expect(removal.error).toBeNull();
    expect(removal.data).toEqual([]);
    expect(await (await alice.client.storage.from(docs).download(path())).data?.text()).toBe(
      'for alice only',
    );
  });

  it('the stranger can use their own folder', async () => {
    const own = await bob.client.storage
      .from(docs)
      .upload(`${bob.id}/mine.txt`, 'bob', { contentType: 'text/plain' });
    expect(own.error).toBeNull();
  });

  it('anon cannot read a private bucket, with the anon key or without any key', async () => {
    const withKey = await fx.anon.storage.from(docs).download(path());
    expect(withKey.error).toMatchObject({ statusCode: '404', message: 'Object not found' });

    const bare = await fetch(`${env.SUPABASE_URL}/storage/v1/object/${docs}/${path()}`);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    });

    const publicRoute = await fetch(
      `${env.SUPABASE_URL}/storage/v1/object/public/${docs}/${path()}`,
    );
    expect(await publicRoute.json()).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
  });

  it('anyone can read a public bucket, even without a key', async () => {
    const name = `${alice.id}/avatar.png`;
    const upload = await alice.client.storage
      .from(pictures)
      .upload(name, png(100), { contentType: 'image/png' });
    expect(upload.error).toBeNull();

    const { publicUrl } = fx.anon.storage.from(pictures).getPublicUrl(name).data;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(png(100));

    const viaAnon = await fx.anon.storage.from(pictures).download(name);
    expect(viaAnon.error).toBeNull();
    expect(viaAnon.data?.size).toBe(100);
    // Reading is public, writing is still the owner's.
    const write = await fx.anon.storage.from(pictures).upload(name, png(10), {
      contentType: 'image/png',
      upsert: true,
    });
    expect(write.error).toMatchObject({ statusCode: '403' });
  });
});

describe('bucket limits', () => {
  it('refuses a file over the bucket size limit, sent raw or as a form', async () => {
    const name = `${alice.id}/big.png`;
    const raw = await alice.client.storage
      .from(pictures)
      .upload(name, png(2048), { contentType: 'image/png' });
    expect(raw.error).toMatchObject({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });

    const form = await alice.client.storage
      .from(pictures)
      .upload(name, new Blob([png(4096)], { type: 'image/png' }));
    expect(form.error).toMatchObject({ statusCode: '413' });
    expect(await fx.objectRow(pictures, name)).toBeUndefined();
  });

  it('answers a large over-size upload with 413 rather than dropping the connection', async () => {
    // Refused long before the body has arrived: the client still gets the JSON answer.
    const name = `${alice.id}/huge.png`;
    const raw = await alice.client.storage
      .from(pictures)
      .upload(name, png(8 * 1024 * 1024), { contentType: 'image/png' });
    expect(raw.error).toMatchObject({ statusCode: '413' });
    const form = await alice.client.storage
      .from(pictures)
      .upload(name, new Blob([png(8 * 1024 * 1024)], { type: 'image/png' }));
    expect(form.error).toMatchObject({ statusCode: '413' });
    expect(await fx.objectRow(pictures, name)).toBeUndefined();
  });

  it('leaves the keep-alive connection usable after refusing uploads over the limit', async () => {
    // supabase-js on Node sends every request over undici's kept-alive connections: the bytes
    // of a refused upload must not be left on the socket for the next request to trip over.
    const small = await fx.createBucket('one-mb', { fileSizeLimit: 1024 * 1024 });
    const large = await fx.createBucket('large');
    await fx.allowOwnerFolders(small);
    await fx.allowOwnerFolders(large);
    for (const size of [1.5e6, 2e6]) {
      const refused = await alice.client.storage
        .from(small)
        .upload(`${alice.id}/${size}.bin`, Buffer.alloc(size, 1), {
          contentType: 'application/octet-stream',
        });
      expect(refused.error, `${size} bytes`).toMatchObject({
        status: 400,
        statusCode: '413',
        message: 'The object exceeded the maximum allowed size',
      });
    }
    const eightMb = Buffer.alloc(8e6, 2);
    const accepted = await alice.client.storage
      .from(large)
      .upload(`${alice.id}/big.bin`, eightMb, { contentType: 'application/octet-stream' });
    expect(accepted.error).toBeNull();
    expect((await fx.objectRow(large, `${alice.id}/big.bin`))?.metadata).toMatchObject({
      size: eightMb.length,
      eTag: md5(eightMb),
    });
  });

  it('refuses bytes that are not the image type they claim, sent raw or as a form', async () => {
    const page = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const raw = await alice.client.storage
      .from(pictures)
      .upload(`${alice.id}/spoof.png`, page, { contentType: 'image/png' });
    expect(raw.error).toMatchObject({
      status: 400,
      statusCode: '415',
      message: 'mime type image/png is not supported',
    });
    const form = await alice.client.storage
      .from(pictures)
      .upload(`${alice.id}/spoof.jpg`, new Blob([page], { type: 'image/jpeg' }));
    expect(form.error).toMatchObject({
      statusCode: '415',
      message: 'mime type image/jpeg is not supported',
    });
    expect(await fx.objectRow(pictures, `${alice.id}/spoof.png`)).toBeUndefined();
    expect(await fx.objectRow(pictures, `${alice.id}/spoof.jpg`)).toBeUndefined();

    const real = await alice.client.storage
      .from(pictures)
      .upload(`${alice.id}/real.png`, new Blob([PNG_BYTES], { type: 'image/png' }));
    expect(real.error).toBeNull();
    // A bucket that takes any type keeps the label as given (and serves it with nosniff).
    const labelled = await alice.client.storage
      .from(docs)
      .upload(`${alice.id}/label.png`, page, { contentType: 'image/png' });
    expect(labelled.error).toBeNull();
  });

  it('refuses a MIME type the bucket does not allow', async () => {
    const result = await alice.client.storage
      .from(pictures)
      .upload(`${alice.id}/notes.txt`, 'text', { contentType: 'text/plain' });
    expect(result.error).toMatchObject({
      status: 400,
      statusCode: '415',
      message: 'mime type text/plain is not supported',
    });
  });
});

describe('listing', () => {
  const files = ['a.txt', 'photos/1.txt', 'photos/2.txt', 'deep/x/y.txt', 'Zed.txt'];

  beforeAll(async () => {
    for (const file of files) {
      const { error } = await alice.client.storage
        .from(docs)
        .upload(`${alice.id}/tree/${file}`, file, { contentType: 'text/plain' });
      expect(error).toBeNull();
    }
  });

  it('lists one level, folders as entries without id or metadata', async () => {
    const { data, error } = await alice.client.storage.from(docs).list(`${alice.id}/tree`);
    expect(error).toBeNull();
    expect(data?.map((entry) => entry.name)).toEqual(['a.txt', 'deep', 'photos', 'Zed.txt']);
    const folder = data?.find((entry) => entry.name === 'photos');
    expect(folder).toMatchObject({ id: null, metadata: null, updated_at: null });
    const file = data?.find((entry) => entry.name === 'a.txt');
    expect(file?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(file?.metadata).toMatchObject({ size: 5, mimetype: 'text/plain' });
  });

  it('lists inside a folder, searches, sorts and pages', async () => {
    const bucket = alice.client.storage.from(docs);
    const inside = await bucket.list(`${alice.id}/tree/photos`);
    expect(inside.data?.map((entry) => entry.name)).toEqual(['1.txt', '2.txt']);

    const search = await bucket.list(`${alice.id}/tree`, { search: 'ph' });
    expect(search.data?.map((entry) => entry.name)).toEqual(['photos']);

    const page = await bucket.list(`${alice.id}/tree`, {
      limit: 2,
      offset: 1,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(page.data?.map((entry) => entry.name)).toEqual(['photos', 'deep']);
  });
});

describe('move, copy and remove', () => {
  it('moves an object: the old key is gone and its bytes follow', async () => {
    const bucket = alice.client.storage.from(docs);
    const from = `${alice.id}/move/from.txt`;
    const to = `${alice.id}/move/to.txt`;
    await bucket.upload(from, 'moving', { contentType: 'text/plain' });
    const before = (await fx.objectRow(docs, from))!;

    const moved = await bucket.move(from, to);
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });

    expect((await bucket.download(from)).error).toMatchObject({ statusCode: '404' });
    expect(await (await bucket.download(to)).data?.text()).toBe('moving');
    const after = (await fx.objectRow(docs, to))!;
    expect(after.id).toBe(before.id);
    expect(fs.existsSync(fx.bytesPath(docs, from, before.version))).toBe(false);
    expect(fs.existsSync(fx.bytesPath(docs, to, after.version))).toBe(true);
  });

  it('refuses a move by someone who cannot see the object, or onto a taken key', async () => {
    const bucket = alice.client.storage.from(docs);
    await bucket.upload(`${alice.id}/move/keep.txt`, 'keep', { contentType: 'text/plain' });
    await bucket.upload(`${alice.id}/move/taken.txt`, 'taken', { contentType: 'text/plain' });

    const stranger = await bob.client.storage
      .from(docs)
      .move(`${alice.id}/move/keep.txt`, `${bob.id}/stolen.txt`);
    expect(stranger.error).toMatchObject({ statusCode: '404', message: 'Object not found' });

    const onto = await bucket.move(`${alice.id}/move/keep.txt`, `${alice.id}/move/taken.txt`);
    expect(onto.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
  });

  it('copies an object: both keys serve the same bytes', async () => {
    const bucket = alice.client.storage.from(docs);
    await bucket.upload(`${alice.id}/copy/original.txt`, 'copied', { contentType: 'text/plain' });

    const copy = await bucket.copy(`${alice.id}/copy/original.txt`, `${alice.id}/copy/twin.txt`);
    expect(copy.error).toBeNull();
    expect(copy.data).toEqual({ path: `${docs}/${alice.id}/copy/twin.txt` });
    expect(await (await bucket.download(`${alice.id}/copy/original.txt`)).data?.text()).toBe(
      'copied',
    );
    expect(await (await bucket.download(`${alice.id}/copy/twin.txt`)).data?.text()).toBe('copied');

    const stranger = await bob.client.storage
      .from(docs)
      .copy(`${alice.id}/copy/original.txt`, `${bob.id}/twin.txt`);
    expect(stranger.error).toMatchObject({ statusCode: '404' });
  });

  it('removes objects: rows and bytes are gone', async () => {
    const bucket = alice.client.storage.from(docs);
    const names = [`${alice.id}/bin/one.txt`, `${alice.id}/bin/two.txt`];
    for (const name of names) await bucket.upload(name, name, { contentType: 'text/plain' });
    const files = await Promise.all(
      names.map(async (name) =>
        fx.bytesPath(docs, name, (await fx.objectRow(docs, name))!.version),
      ),
    );
    expect(files.every((file) => fs.existsSync(file))).toBe(true);

    const removed = await bucket.remove([...names, `${alice.id}/bin/never-there.txt`]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((entry) => entry.name).sort()).toEqual(names);
    for (const name of names) expect(await fx.objectRow(docs, name)).toBeUndefined();
    expect(files.some((file) => fs.existsSync(file))).toBe(false);
    expect((await bucket.exists(names[0]!)).data).toBe(false);
  });
});

describe('keys that would leave the storage folder', () => {
  const post = (path: string) =>
    fetch(`${env.SUPABASE_URL}/storage/v1/object/${docs}/${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
        'content-type': 'text/plain',
      },
      body: 'escape',
    });

  it('refuses dot segments and NUL bytes in an object key', async () => {
    const traversal = await post('..%2F..%2F..%2Fescaped.txt');
    expect(traversal.status).toBe(400);
    expect(await traversal.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' });

    const nul = await post('bad%00name.txt');
    expect(await nul.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' });
    // Nothing landed where the key pointed (up to three folders above the bucket's).
    let dir = join(fx.storageRoot(), docs);
    for (let level = 0; level < 4; level++, dir = dirname(dir)) {
      expect(fs.existsSync(join(dir, 'escaped.txt'))).toBe(false);
    }
  });

  it('refuses a move or copy whose destination climbs out', async () => {
    const bucket = fx.service.storage.from(docs);
    await bucket.upload(`${alice.id}/safe.txt`, 'safe', { contentType: 'text/plain' });
    const move = await bucket.move(`${alice.id}/safe.txt`, '../../outside.txt');
    expect(move.error).toMatchObject({
      statusCode: '400',
      message: expect.stringContaining('Invalid key'),
    });
    const copy = await bucket.copy(`${alice.id}/safe.txt`, 'a/../../outside.txt');
    expect(copy.error).toMatchObject({
      statusCode: '400',
      message: expect.stringContaining('Invalid key'),
    });
  });

  it('refuses a bucket named like a parent folder', async () => {
    const { error } = await fx.service.storage.createBucket('..');
    expect(error).toMatchObject({ statusCode: '400', message: 'Bucket name invalid' });
  });
});
