import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { StorageFixture, type StorageUser } from './storage-fixture.ts';

/**
 * Signed URLs: download links that work without a session until they expire, and upload links
 * issued only to someone RLS lets write the object, then usable by anyone holding them.
 */

const env = inject('stackEnv');
let fx: StorageFixture;
let alice: StorageUser;
let bob: StorageUser;
let docs: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  fx = await StorageFixture.create(env);
  alice = await fx.createUser('alice');
  bob = await fx.createUser('bob');
  docs = await fx.createBucket('signed');
  await fx.allowOwnerFolders(docs);
  const bucket = alice.client.storage.from(docs);
  for (const name of ['one.txt', 'two.txt']) {
    const { error } = await bucket.upload(`${alice.id}/${name}`, `content of ${name}`, {
      contentType: 'text/plain',
    });
    expect(error).toBeNull();
  }
});

afterAll(async () => {
  await fx?.drop();
});

describe('signed download URLs', () => {
  it('serve the object to anyone until they expire, then answer InvalidJWT', async () => {
    // A few seconds of validity keep the first fetch inside it even on a busy machine.
    const { data, error } = await alice.client.storage
      .from(docs)
      .createSignedUrl(`${alice.id}/one.txt`, 4);
    expect(error).toBeNull();
    const signedUrl = data!.signedUrl;
    expect(signedUrl).toContain(`/storage/v1/object/sign/${docs}/${alice.id}/one.txt?token=`);
    const token = new URL(signedUrl).searchParams.get('token')!;
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
    };

    const fresh = await fetch(signedUrl);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe('content of one.txt');
    expect(fresh.headers.get('expires')).toBe(new Date(exp * 1000).toUTCString());
    expect(fresh.headers.get('x-content-type-options')).toBe('nosniff');

    await sleep(Math.max(0, exp * 1000 - Date.now()) + 100);
    const expired = await fetch(signedUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });
  });

  it('offer a download as an attachment', async () => {
    const { data } = await alice.client.storage
      .from(docs)
      .createSignedUrl(`${alice.id}/one.txt`, 60, { download: 'saved.txt' });
    const response = await fetch(data!.signedUrl);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename=saved.txt; filename*=UTF-8''saved.txt`,
    );
  });

  it('are issued only for objects the caller can see', async () => {
    const stranger = await bob.client.storage.from(docs).createSignedUrl(`${alice.id}/one.txt`, 60);
    expect(stranger.error).toMatchObject({ statusCode: '404', message: 'Object not found' });

    const many = await alice.client.storage
      .from(docs)
      .createSignedUrls([`${alice.id}/one.txt`, `${alice.id}/missing.txt`], 60);
    expect(many.error).toBeNull();
    expect(many.data?.[0]).toMatchObject({ path: `${alice.id}/one.txt`, error: null });
    expect(many.data?.[1]).toEqual({
      path: `${alice.id}/missing.txt`,
      error: 'Either the object does not exist or you do not have access to it',
      signedURL: null,
      signedUrl: null,
    });
    const response = await fetch(many.data![0]!.signedUrl!);
    expect(await response.text()).toBe('content of one.txt');
  });

  it('grant one object only: the token does not open another key', async () => {
    const { data } = await alice.client.storage
      .from(docs)
      .createSignedUrl(`${alice.id}/one.txt`, 60);
    const token = new URL(data!.signedUrl).searchParams.get('token');
    const other = await fetch(
      `${env.SUPABASE_URL}/storage/v1/object/sign/${docs}/${alice.id}/two.txt?token=${token}`,
    );
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({
      code: 'InvalidSignature',
      message: 'Invalid signature',
    });
  });

  it('refuse an invalid expiresIn', async () => {
    const { error } = await alice.client.storage
      .from(docs)
      .createSignedUrl(`${alice.id}/one.txt`, 0);
    expect(error).toMatchObject({ statusCode: '400', message: 'Invalid Parameter expiresIn' });
  });
});

describe('signed upload URLs', () => {
  it('let anyone holding the token upload the object, owned by the signer', async () => {
    const path = `${alice.id}/dropbox/upload.txt`;
    const signed = await alice.client.storage.from(docs).createSignedUploadUrl(path);
    expect(signed.error).toBeNull();
    expect(signed.data).toMatchObject({ path, token: expect.any(String) });

    const upload = await fx.anon.storage
      .from(docs)
      .uploadToSignedUrl(path, signed.data!.token, new Blob(['sent with a token']));
    expect(upload.error).toBeNull();
    expect(upload.data).toEqual({ path, fullPath: `${docs}/${path}` });

    expect(await fx.objectRow(docs, path)).toMatchObject({ owner: alice.id, owner_id: alice.id });
    const download = await alice.client.storage.from(docs).download(path);
    expect(await download.data?.text()).toBe('sent with a token');

    // Without upsert in the signature, the link does not overwrite.
    const again = await fx.anon.storage
      .from(docs)
      .uploadToSignedUrl(path, signed.data!.token, new Blob(['overwrite']));
    expect(again.error).toMatchObject({
      statusCode: '409',
      message: 'The resource already exists',
    });
  });

  it('overwrite when signed with upsert', async () => {
    const path = `${alice.id}/dropbox/replace.txt`;
    const bucket = alice.client.storage.from(docs);
    await bucket.upload(path, 'old', { contentType: 'text/plain' });
    const signed = await bucket.createSignedUploadUrl(path, { upsert: true });
    const upload = await fx.anon.storage
      .from(docs)
      .uploadToSignedUrl(path, signed.data!.token, 'new', { contentType: 'text/plain' });
    expect(upload.error).toBeNull();
    expect(await (await bucket.download(path)).data?.text()).toBe('new');
  });

  it('are refused to whom RLS would refuse the upload', async () => {
    const { error } = await bob.client.storage
      .from(docs)
      .createSignedUploadUrl(`${alice.id}/dropbox/intrusion.txt`);
    expect(error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
  });

  it('cannot be used to download, nor a download token to upload', async () => {
    const path = `${alice.id}/dropbox/scoped.txt`;
    const signed = await alice.client.storage.from(docs).createSignedUploadUrl(path);
    const asDownload = await fetch(
      `${env.SUPABASE_URL}/storage/v1/object/sign/${docs}/${path}?token=${signed.data!.token}`,
    );
    expect(await asDownload.json()).toMatchObject({
      code: 'InvalidSignature',
      message: 'Token is not scoped for download',
    });

    const download = await alice.client.storage
      .from(docs)
      .createSignedUrl(`${alice.id}/one.txt`, 60);
    const token = new URL(download.data!.signedUrl).searchParams.get('token')!;
    const asUpload = await fx.anon.storage
      .from(docs)
      .uploadToSignedUrl(`${alice.id}/one.txt`, token, 'hijack');
    expect(asUpload.error).toMatchObject({ message: 'Token is not scoped for upload' });
  });
});
