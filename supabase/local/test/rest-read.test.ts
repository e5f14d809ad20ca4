import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRestFixture, type Book, type RestFixture } from './rest-fixture.ts';

/**
 * Reading through /rest/v1 with supabase-js: embedding, filters, ordering, counting, ranges and
 * the single-object modes, as the portal and kiosk use them. Alice owns five books by two
 * authors; Bob owns two by one author; RLS limits every reader to their own rows.
 */

const env = inject('stackEnv');
let fx: RestFixture;

beforeAll(async () => {
  fx = await createRestFixture(env);
});

afterAll(async () => {
  await fx?.drop();
});

const titlesOf = (rows: { title: string }[] | null) => (rows ?? []).map((row) => row.title);
const aliceBooks = () => fx.seededBooks.filter((book) => book.owner_id === fx.alice.id);

describe('embedding', () => {
  it('embeds the many side of a one-to-many relationship as an array', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.authors)
      .select(`name, books:${fx.books}(title)`)
      .order('name')
      .order('title', { referencedTable: 'books' });
    expect(error).toBeNull();
    expect(data).toEqual([
      {
        name: 'Ada Lovelace',
        books: [{ title: 'Notes by the Translator' }, { title: 'Sketch of the Analytical Engine' }],
      },
      {
        name: 'Alan Turing',
        books: [
          { title: 'Computing Machinery and Intelligence' },
          { title: 'On Computable Numbers' },
          { title: 'Untitled Draft' },
        ],
      },
    ]);
  });

  it('embeds the one side of a many-to-one relationship as an object', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select(`title, author:${fx.authors}(name, bio)`)
      .eq('isbn', 'isbn-ada-1')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      title: 'Sketch of the Analytical Engine',
      author: { name: 'Ada Lovelace', bio: 'Analyst' },
    });
  });

  it('filters parents by an embedded column with an inner join', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      // A plain string: supabase-js's select parser cannot type a `!inner` hint on a computed name.
      .select(`title, ${fx.authors}!inner(name)` as string)
      .eq(`${fx.authors}.name`, 'Ada Lovelace')
      .order('title');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Notes by the Translator', [fx.authors]: { name: 'Ada Lovelace' } },
      { title: 'Sketch of the Analytical Engine', [fx.authors]: { name: 'Ada Lovelace' } },
    ]);
  });

  it('gives null for an embedded row the reader may not see', async () => {
    // Bob's book is public, its author is not: the book shows, its author does not.
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select(`title, author:${fx.authors}(name)`)
      .eq('isbn', 'isbn-grace-1');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'A Manual of Operation', author: null }]);
  });
});

describe('filters and ordering', () => {
  it('eq, ordered descending', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('title, published_year')
      .eq('genre', 'math')
      .order('published_year', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'On Computable Numbers', published_year: 1936 },
      { title: 'Notes by the Translator', published_year: 1843 },
      { title: 'Sketch of the Analytical Engine', published_year: 1842 },
    ]);
  });

  it('ilike matches case-insensitively with wildcards', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('title')
      .ilike('title', '%COMPUT%')
      .order('title');
    expect(error).toBeNull();
    expect(titlesOf(data)).toEqual([
      'Computing Machinery and Intelligence',
      'On Computable Numbers',
    ]);
  });

  it('in matches any of a list', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('isbn')
      .in('isbn', ['isbn-ada-2', 'isbn-alan-2', 'isbn-grace-2'])
      .order('isbn');
    expect(error).toBeNull();
    // Bob's private book is in the list but not visible to Alice.
    expect(data).toEqual([{ isbn: 'isbn-ada-2' }, { isbn: 'isbn-alan-2' }]);
  });

  it('or combines conditions, and is(null) finds missing values', async () => {
    const either = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('title')
      .or('genre.eq.philosophy,published_year.lt.1843')
      .order('title');
    expect(either.error).toBeNull();
    expect(titlesOf(either.data)).toEqual([
      'Computing Machinery and Intelligence',
      'Sketch of the Analytical Engine',
    ]);

    const missing = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('title, genre')
      .is('published_year', null);
    expect(missing.error).toBeNull();
    expect(missing.data).toEqual([{ title: 'Untitled Draft', genre: null }]);
  });

  it('puts nulls where asked', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('isbn')
      .order('published_year', { ascending: true, nullsFirst: true })
      .limit(2);
    expect(error).toBeNull();
    expect(data).toEqual([{ isbn: 'isbn-alan-3' }, { isbn: 'isbn-ada-1' }]);
  });

  it('refuses an unknown column with PostgREST’s error', async () => {
    const { data, error, status } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('title')
      .eq('no_such_column', 1);
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: '42703',
      message: `column ${fx.books}.no_such_column does not exist`,
    });
  });
});

describe('counting and ranges', () => {
  it('counts exactly without rows when asked for the head only', async () => {
    const { data, count, error, status } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('*', { count: 'exact', head: true });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toBeNull();
    // Alice's five plus Bob's public one.
    expect(count).toBe(aliceBooks().length + 1);
  });

  it('pages with range and reports the total', async () => {
    const { data, count, error, status } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('isbn', { count: 'exact' })
      .eq('owner_id', fx.alice.id)
      .order('isbn')
      .range(1, 2);
    expect(error).toBeNull();
    expect(status).toBe(206);
    expect(count).toBe(5);
    expect(data).toEqual([{ isbn: 'isbn-ada-2' }, { isbn: 'isbn-alan-1' }]);
  });

  it('sends Content-Range through the gateway, with the total when counted', async () => {
    const url = `${env.SUPABASE_URL}/rest/v1/${fx.books}?select=isbn&owner_id=eq.${fx.alice.id}&order=isbn`;
    const headers = { apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${fx.alice.token}` };

    const counted = await fetch(url, {
      headers: { ...headers, range: '0-1', prefer: 'count=exact' },
    });
    expect(counted.status).toBe(206);
    expect(counted.headers.get('content-range')).toBe('0-1/5');
    expect(counted.headers.get('access-control-expose-headers')).toContain('content-range');

    const uncounted = await fetch(url, { headers: { ...headers, range: '2-3' } });
    expect(uncounted.status).toBe(200);
    expect(uncounted.headers.get('content-range')).toBe('2-3/*');
    expect(((await uncounted.json()) as Book[]).map((book) => book.isbn)).toEqual([
      'isbn-alan-1',
      'isbn-alan-2',
    ]);
  });

  it('refuses a range past the end with 416', async () => {
    const { error, status } = await fx
      .as(fx.alice)
      .from(fx.books)
      .select('isbn', { count: 'exact' })
      .eq('owner_id', fx.alice.id)
      .range(10, 11);
    expect(status).toBe(416);
    expect(error).toMatchObject({
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
    });
  });
});

describe('single and maybeSingle', () => {
  it('single returns one object', async () => {
    const { data, error } = await fx
      .as(fx.alice)
      .from(fx.authors)
      .select('name')
      .eq('id', fx.alan.id)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: 'Alan Turing' });
  });

  it('single refuses no rows and several rows with PGRST116 and 406', async () => {
    const none = await fx
      .as(fx.alice)
      .from(fx.authors)
      .select('name')
      .eq('id', fx.grace.id)
      .single();
    expect(none.data).toBeNull();
    expect(none.status).toBe(406);
    expect(none.error).toMatchObject({
      code: 'PGRST116',
      message: 'JSON object requested, multiple (or no) rows returned',
      details: 'The result contains 0 rows',
    });

    const several = await fx.as(fx.alice).from(fx.authors).select('name').single();
    expect(several.status).toBe(406);
    expect(several.error).toMatchObject({
      code: 'PGRST116',
      details: 'The result contains 2 rows',
    });
  });

  it('maybeSingle gives null for no rows and refuses several', async () => {
    const none = await fx
      .as(fx.alice)
      .from(fx.authors)
      .select('name')
      .eq('id', fx.grace.id)
      .maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();

    const several = await fx.as(fx.alice).from(fx.authors).select('name').maybeSingle();
    expect(several.data).toBeNull();
    expect(several.error).toMatchObject({
      code: 'PGRST116',
      message: 'JSON object requested, multiple (or no) rows returned',
    });
  });
});
