import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CORS_HEADERS } from '../src/http.ts';
import { signToken } from '../src/jwt.ts';
import { createRestFixture, tokenFor, type RestFixture } from './rest-fixture.ts';

/**
 * Who may see and change what through /rest/v1: the anon key, a user's JWT and the service
 * key against RLS; then the tokens PostgREST must refuse, each with the answer PostgREST 12 gives
 * (every JWT failure is PGRST301 in 12.0; later releases split some into PGRST303).
 */

const env = inject('stackEnv');
let fx: RestFixture;

beforeAll(async () => {
  fx = await createRestFixture(env);
});

afterAll(async () => {
  await fx?.drop();
});

const rlsMessage = (table: string) =>
  `new row violates row-level security policy for table "${table}"`;
const isbnsOf = (rows: { isbn: string }[] | null) => (rows ?? []).map((row) => row.isbn).sort();

describe('who sees which rows', () => {
  it('anon sees only public books and no authors', async () => {
    const books = await fx.anon.from(fx.books).select('isbn');
    expect(books.error).toBeNull();
    expect(isbnsOf(books.data)).toEqual(['isbn-ada-2', 'isbn-grace-1']);

    const authors = await fx.anon.from(fx.authors).select('name');
    expect(authors.error).toBeNull();
    expect(authors.data).toEqual([]);
  });

  it("a user sees their own rows and others' public ones, never others' private ones", async () => {
    const { data, error } = await fx.as(fx.bob).from(fx.books).select('isbn');
    expect(error).toBeNull();
    expect(isbnsOf(data)).toEqual(['isbn-ada-2', 'isbn-grace-1', 'isbn-grace-2']);

    const hidden = await fx.as(fx.bob).from(fx.books).select('isbn').eq('isbn', 'isbn-alan-1');
    expect(hidden.error).toBeNull();
    expect(hidden.data).toEqual([]);

    const authors = await fx.as(fx.bob).from(fx.authors).select('name');
    expect(authors.data).toEqual([{ name: 'Grace Hopper' }]);
  });

  it('the service role bypasses RLS and sees everything', async () => {
    const { data, error } = await fx.service.from(fx.books).select('isbn');
    expect(error).toBeNull();
    expect(isbnsOf(data)).toEqual(fx.seededBooks.map((book) => book.isbn).sort());

    const authors = await fx.service
      .from(fx.authors)
      .select('name', { count: 'exact', head: true });
    expect(authors.count).toBe(3);
  });
});

describe('RLS refusals on write', () => {
  it("refuses a user's insert of a row owned by someone else with 403 and 42501", async () => {
    const { data, error, status } = await fx
      .as(fx.alice)
      .from(fx.books)
      .insert({
        owner_id: fx.bob.id,
        author_id: fx.ada.id,
        title: 'Forged',
        isbn: 'isbn-sec-forged',
      })
      .select();
    expect(data).toBeNull();
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: rlsMessage(fx.books) });
    const { rowCount } = await fx.db.query(
      `select 1 from public.${fx.books} where isbn = 'isbn-sec-forged'`,
    );
    expect(rowCount).toBe(0);
  });

  it('refuses an anonymous insert with 401 and 42501, before RLS: anon has no write grant', async () => {
    const { error, status } = await fx.anon
      .from(fx.authors)
      .insert({ owner_id: fx.alice.id, name: 'Anonymous' });
    expect(status).toBe(401);
    expect(error).toMatchObject({
      code: '42501',
      message: `permission denied for table ${fx.authors}`,
    });
  });

  it('refuses an update that would hand a row to someone else', async () => {
    const { error, status } = await fx
      .as(fx.alice)
      .from(fx.authors)
      .update({ owner_id: fx.bob.id })
      .eq('id', fx.alan.id);
    expect(status).toBe(403);
    expect(error).toMatchObject({ code: '42501', message: rlsMessage(fx.authors) });
  });

  it('lets the service role write for any owner', async () => {
    const { data, error, status } = await fx.service
      .from(fx.authors)
      .insert({ owner_id: fx.bob.id, name: 'Jean Sammet' })
      .select('owner_id, name')
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ owner_id: fx.bob.id, name: 'Jean Sammet' });
  });
});

describe('tokens PostgREST refuses', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  async function refusal(token: string) {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/${fx.books}?select=isbn`, {
      headers: { apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      wwwAuthenticate: response.headers.get('www-authenticate'),
      body: await response.json(),
    };
  }

  it('an expired token: 401 PGRST301 "JWT expired", through supabase-js too', async () => {
    const expired = await tokenFor(env, fx.alice.id, -60);
    expect(await refusal(expired)).toEqual({
      status: 401,
      wwwAuthenticate: 'Bearer error="invalid_token", error_description="JWT expired"',
      body: { code: 'PGRST301', details: null, hint: null, message: 'JWT expired' },
    });

    const { data, error, status } = await fx.withToken(expired).from(fx.books).select('isbn');
    expect(data).toBeNull();
    expect(status).toBe(401);
    expect(error).toMatchObject({ code: 'PGRST301', message: 'JWT expired' });
  });

  it('a token signed with another secret: 401 PGRST301 invalid signature', async () => {
    const forged = await signToken('another-secret-that-is-also-32-characters-long', {
      role: 'service_role',
      exp: now() + 600,
    });
    expect(await refusal(forged)).toEqual({
      status: 401,
      wwwAuthenticate:
        'Bearer error="invalid_token", error_description="JWSError JWSInvalidSignature"',
      body: {
        code: 'PGRST301',
        details: null,
        hint: null,
        message: 'JWSError JWSInvalidSignature',
      },
    });
  });

  it('an unsigned token (alg: none) claiming service_role: 401 PGRST301', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ role: 'service_role', exp: now() + 600 })}.`;
    expect(await refusal(unsigned)).toEqual({
      status: 401,
      wwwAuthenticate: 'Bearer error="invalid_token", error_description="JWSError JWSNoSignatures"',
      body: { code: 'PGRST301', details: null, hint: null, message: 'JWSError JWSNoSignatures' },
    });
  });

  it('something that is not a JWT at all: 401 PGRST301', async () => {
    const { status, body } = await refusal('not-a-jwt');
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'PGRST301' });
    expect((body as { message: string }).message).toMatch(/^JWSError \(CompactDecodeError/);
  });
});

describe('the gateway in front of PostgREST', () => {
  it('uses the apikey as the bearer when no Authorization header comes', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/${fx.authors}?select=name`, {
      headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
    });
    expect(response.status).toBe(200);
    const { rows } = await fx.db.query<{ count: number }>(
      `select count(*)::int as count from public.${fx.authors}`,
    );
    expect(((await response.json()) as unknown[]).length).toBe(rows[0]!.count);
  });

  it('lets the Authorization header, not the apikey, decide the role', async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/${fx.authors}?select=owner_id`, {
      headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY, authorization: `Bearer ${fx.bob.token}` },
    });
    const owners = (await response.json()) as { owner_id: string }[];
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((row) => row.owner_id === fx.bob.id)).toBe(true);
  });

  it("answers a browser with the gateway's CORS headers only, not PostgREST's as well", async () => {
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1/${fx.books}?select=isbn&limit=1`, {
      headers: { apikey: env.SUPABASE_ANON_KEY, origin: 'http://localhost:5173' },
    });
    expect(response.status).toBe(200);
    // Duplicated headers would come back joined with ", ", which browsers refuse for this one.
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      CORS_HEADERS['access-control-expose-headers'],
    );
  });
});
