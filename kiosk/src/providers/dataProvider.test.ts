import { createClient } from '@supabase/supabase-js';
import type { GetListParams } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider, withSearch } from './dataProvider.ts';

const listParams = (filter: Record<string, unknown>): GetListParams => ({
  filter,
  sort: { field: 'id', order: 'ASC' },
  pagination: { page: 1, perPage: 25 },
});

const searchColumns = { users: ['email', 'full_name'] };

describe('withSearch', () => {
  it('turns q into an ilike on every search column, keeping the other filters', () => {
    expect(withSearch('users', listParams({ q: 'Ada', status: 'active' }), searchColumns)).toEqual(
      listParams({
        status: 'active',
        '@or': { 'email@ilike': 'Ada', 'full_name@ilike': 'Ada' },
      }),
    );
  });

  it('matches several words in order, whatever the spacing', () => {
    expect(
      withSearch('users', listParams({ q: '  ada   king lovelace ' }), searchColumns).filter,
    ).toEqual({
      '@or': { 'email@ilike': 'ada*king*lovelace', 'full_name@ilike': 'ada*king*lovelace' },
    });
  });

  it('reduces PostgREST and pattern syntax in the text to word breaks', () => {
    expect(
      withSearch('users', listParams({ q: 'a,b) or(c.d:"e%f*g\\' }), searchColumns).filter,
    ).toEqual({
      '@or': { 'email@ilike': 'a*b*or*c*d*e*f*g', 'full_name@ilike': 'a*b*or*c*d*e*f*g' },
    });
  });

  it('drops a search made only of syntax, and leaves lists without q alone', () => {
    expect(withSearch('users', listParams({ q: ' (*) ', status: 'x' }), searchColumns)).toEqual(
      listParams({ status: 'x' }),
    );
    const untouched = listParams({ status: 'x' });
    expect(withSearch('users', untouched, searchColumns)).toBe(untouched);
  });

  it('refuses to search a resource that has no search columns', () => {
    expect(() => withSearch('domains', listParams({ q: 'x' }), searchColumns)).toThrow(
      'The kiosk cannot search domains: no search columns are configured.',
    );
  });
});

describe('createDataProvider', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads a resource from its view and sends the search as one or=() filter with the anon key', async () => {
    const requests: Request[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init));
      return new Response('[{"id":7,"email":"ada@example.com"}]', {
        headers: { 'content-type': 'application/json', 'content-range': '0-0/1' },
      });
    });
    const env = { supabaseUrl: 'http://127.0.0.1:59999', supabaseAnonKey: 'anon-key' };
    const client = createClient(env.supabaseUrl, env.supabaseAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const dataProvider = createDataProvider({
      env,
      client,
      resources: { users: { read: 'kiosk_users', write: 'profiles', search: searchColumns.users } },
    });

    const result = await dataProvider.getList(
      'users',
      listParams({ q: 'ada love', role: 'staff' }),
    );

    expect(result).toEqual({ data: [{ id: 7, email: 'ada@example.com' }], total: 1 });
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0]!.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:59999/rest/v1/kiosk_users');
    expect(url.searchParams.get('or')).toBe('(email.ilike.*ada*love*,full_name.ilike.*ada*love*)');
    expect(url.searchParams.get('role')).toBe('eq.staff');
    expect(url.searchParams.get('q')).toBeNull();
    expect(requests[0]!.headers.get('apikey')).toBe('anon-key');
    expect(requests[0]!.headers.get('prefer')).toBe('count=exact');
  });
});

describe('createDataProvider writes', () => {
  afterEach(() => vi.unstubAllGlobals());

  const env = { supabaseUrl: 'http://127.0.0.1:59999', supabaseAnonKey: 'anon-key' };
  const resources = {
    users: { read: 'kiosk_users', write: 'profiles' },
    words: { read: 'password_dictionary', primaryKey: ['word'] },
  };

  function recordRequests(answers: Record<string, unknown>) {
    const requests: Request[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(request);
      const path = new URL(request.url).pathname.replace('/rest/v1/', '');
      const rows = (answers[`${request.method} ${path}`] ?? []) as unknown[];
      // PostgREST answers one object when asked for vnd.pgrst.object+json (getOne).
      const single = request.headers.get('accept')?.includes('vnd.pgrst.object');
      return new Response(JSON.stringify(single ? rows[0] : rows), {
        headers: { 'content-type': 'application/json', 'content-range': '0-0/1' },
      });
    });
    return requests;
  }

  const clientFor = () =>
    createClient(env.supabaseUrl, env.supabaseAnonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });

  it('updates the table, then answers the screen’s record from the view', async () => {
    const requests = recordRequests({
      'PATCH profiles': [{ id: 'u1', status: 20 }],
      'GET kiosk_users': [{ id: 'u1', status: 20, email: 'ada@example.com', plan: 'pro' }],
    });
    const dataProvider = createDataProvider({ env, client: clientFor(), resources });
    const result = await dataProvider.update('users', {
      id: 'u1',
      data: { id: 'u1', status: 20, plan: 'pro', teams: [{ id: 't1' }] },
      previousData: { id: 'u1', status: 0, plan: 'pro', teams: [{ id: 't1' }] },
    });
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'PATCH /rest/v1/profiles',
      'GET /rest/v1/kiosk_users',
    ]);
    expect(new URL(requests[0]!.url).searchParams.get('id')).toBe('eq.u1');
    expect(await requests[0]!.json()).toEqual({ status: 20 });
    expect(result.data).toEqual({ id: 'u1', status: 20, email: 'ada@example.com', plan: 'pro' });
  });

  it('addresses rows by their own primary key', async () => {
    const requests = recordRequests({ 'DELETE password_dictionary': [{ word: 'qwerty' }] });
    const dataProvider = createDataProvider({ env, client: clientFor(), resources });
    await dataProvider.delete('words', { id: 'qwerty', previousData: { id: 'qwerty' } });
    expect(new URL(requests[0]!.url).searchParams.get('word')).toBe('eq.qwerty');
  });

  it('refuses a resource the kiosk does not know', async () => {
    const dataProvider = createDataProvider({ env, client: clientFor(), resources });
    expect(() =>
      dataProvider.getList('invoices', {
        filter: {},
        sort: { field: 'id', order: 'ASC' },
        pagination: { page: 1, perPage: 10 },
      }),
    ).toThrow('The kiosk has no resource named "invoices".');
  });
});
