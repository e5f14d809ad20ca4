import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signToken } from '../src/jwt.ts';
import { accessToken, StorageFixture, type StorageUser } from './storage-fixture.ts';

/**
 * How Storage reads the caller: a bearer JWT checked against the project secret (falling back
 * to the apikey header). Bad tokens get Storage's AccessDenied with the verifier's message,
 * except on routes that let an invalid caller through as anonymous (public-bucket reads).
 */

const env = inject('stackEnv');
let fx: StorageFixture;
let alice: StorageUser;
let privateBucket: string;
let publicBucket: string;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  fx = await StorageFixture.create(env);
  alice = await fx.createUser('alice');
  privateBucket = await fx.createBucket('private');
  publicBucket = await fx.createBucket('public', { public: true });
  await fx.allowOwnerFolders(privateBucket);
  await fx.service.storage.from(publicBucket).upload('hello.txt', 'hello', {
    contentType: 'text/plain',
  });
});

afterAll(async () => {
  await fx?.drop();
});

describe('bad tokens', () => {
  const badTokens = {
    expired: () => accessToken(env, alice.id, { lifetimeSeconds: -60 }),
    'signed with another secret': () =>
      signToken('not-the-project-secret-but-long-enough-to-sign', {
        role: 'authenticated',
        sub: alice.id,
        exp: Math.floor(Date.now() / 1000) + 600,
      }),
    unsigned: async () =>
      `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({
        role: 'service_role',
        exp: Math.floor(Date.now() / 1000) + 600,
      })}.`,
  };
  const messages = {
    expired: '"exp" claim timestamp check failed',
    'signed with another secret': 'signature verification failed',
    unsigned: '"alg" (Algorithm) Header Parameter value not allowed',
  };

  for (const [kind, make] of Object.entries(badTokens)) {
    it(`refuses a token ${kind} with AccessDenied`, async () => {
      const client = fx.withToken(await make());
      const { error } = await client.storage.from(privateBucket).list(alice.id);
      expect(error).toMatchObject({
        name: 'StorageApiError',
        status: 400,
        statusCode: '403',
        message: messages[kind as keyof typeof messages],
      });

      const upload = await client.storage
        .from(privateBucket)
        .upload(`${alice.id}/x.txt`, 'x', { contentType: 'text/plain' });
      expect(upload.error).toMatchObject({ statusCode: '403' });
      expect(await fx.objectRow(privateBucket, `${alice.id}/x.txt`)).toBeUndefined();
    });
  }

  it('answers in Storage words, with the legacy error field', async () => {
    const token = await badTokens.expired();
    const response = await fetch(`${env.SUPABASE_URL}/storage/v1/bucket`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: '"exp" claim timestamp check failed',
    });
  });

  it('refuses a request with no token at all', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/storage/v1/bucket`);
    expect(await response.json()).toMatchObject({
      statusCode: '403',
      message: 'Invalid Compact JWS',
    });
  });

  it('refuses a role Storage does not act as', async () => {
    const token = await accessToken(env, alice.id, { role: 'postgres' });
    const { error } = await fx.withToken(token).storage.listBuckets();
    expect(error).toMatchObject({ status: 403, message: 'Access denied: Invalid role' });
  });

  it('still serves public-bucket reads to a caller whose token is bad', async () => {
    const client = fx.withToken(await badTokens.expired());
    const { data, error } = await client.storage.from(publicBucket).download('hello.txt');
    expect(error).toBeNull();
    expect(await data?.text()).toBe('hello');
  });
});

describe('where the caller comes from', () => {
  it('falls back to the apikey header when there is no Authorization', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/storage/v1/bucket/${privateBucket}`, {
      headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: privateBucket, public: false });
  });

  it('acts as the user of the token: RLS sees their id', async () => {
    const { error } = await alice.client.storage
      .from(privateBucket)
      .upload(`${alice.id}/mine.txt`, 'mine', { contentType: 'text/plain' });
    expect(error).toBeNull();
    expect(await fx.objectRow(privateBucket, `${alice.id}/mine.txt`)).toMatchObject({
      owner: alice.id,
    });
  });

  it('keeps service-role-only routes for the service role', async () => {
    const { error } = await alice.client.storage.emptyBucket(privateBucket);
    expect(error).toMatchObject({
      status: 403,
      statusCode: '403',
      message: 'Access denied: Invalid role',
    });
  });
});
