import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../src/ports.ts';

/**
 * pg_net on the local stack: net.http_get/http_post/http_delete (supabase/local/sql/extensions)
 * and the stack's worker (src/net), against a receiver this file runs on loopback.
 */
const env = inject('stackEnv');
const db = new pg.Pool({ connectionString: env.DB_URL, max: 4 });
db.on('error', () => {});

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const reply = () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-reply': 'yes' });
      res.end(JSON.stringify({ ok: true, path: req.url }));
    };
    if (req.url?.startsWith('/slow')) setTimeout(reply, 1_500);
    else reply();
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db.end();
});

interface StoredResponse {
  status_code: number | null;
  content_type: string | null;
  headers: Record<string, string> | null;
  content: string | null;
  timed_out: boolean | null;
  error_msg: string | null;
}

async function responseOf(id: string): Promise<StoredResponse> {
  let row: StoredResponse | undefined;
  await waitFor(
    `the response to request ${id}`,
    async () => {
      const { rows } = await db.query<StoredResponse>(
        `select status_code, content_type, headers, content, timed_out, error_msg
         from net._http_response where id = $1`,
        [id],
      );
      row = rows[0];
      return row !== undefined;
    },
    8_000,
    50,
  );
  return row!;
}

const requestId = async (sql: string, values: unknown[] = []) =>
  (await db.query<{ id: string }>(sql, values)).rows[0]!.id;

describe('net.http_post', () => {
  it('sends the body and headers after commit, and stores the response under the request id', async () => {
    const id = await requestId(
      `select net.http_post(
         url => $1,
         body => '{"event": "renewal", "amount": 1200}'::jsonb,
         params => '{"page": "1", "note": "a b&c"}'::jsonb,
         headers => '{"X-Signature": "sig-123", "Content-Type": "application/json"}'::jsonb
       ) as id`,
      [`${base}/hook`],
    );
    const response = await responseOf(id);
    expect(response).toMatchObject({
      status_code: 201,
      content_type: 'application/json',
      timed_out: false,
      error_msg: null,
    });
    expect(response.headers).toMatchObject({ 'x-reply': 'yes' });
    // Parameters are encoded and appended in jsonb's key order, as pg_net does.
    expect(JSON.parse(response.content!)).toEqual({
      ok: true,
      path: '/hook?note=a%20b%26c&page=1',
    });

    const request = received.find((each) => each.url.startsWith('/hook?'));
    expect(request).toMatchObject({ method: 'POST', url: '/hook?note=a%20b%26c&page=1' });
    expect(request!.headers).toMatchObject({
      'x-signature': 'sig-123',
      'content-type': 'application/json',
    });
    expect(JSON.parse(request!.body)).toEqual({ event: 'renewal', amount: 1200 });
  });

  it('sends nothing for a rolled-back transaction', async () => {
    const client = await db.connect();
    try {
      await client.query('begin');
      await client.query(`select net.http_post($1, '{}'::jsonb)`, [`${base}/rolled-back`]);
      await client.query('rollback');
    } finally {
      client.release();
    }
    // Requests go in order: once a later committed one arrived, the rolled-back one never will.
    const later = await requestId(`select net.http_get($1) as id`, [`${base}/after-rollback`]);
    await responseOf(later);
    expect(received.map((each) => each.url)).toContain('/after-rollback');
    expect(received.map((each) => each.url)).not.toContain('/rolled-back');
  });
});

describe('net.http_get and net.http_delete', () => {
  it('send their method, parameters and headers', async () => {
    const get = await requestId(
      `select net.http_get($1, '{"page": "2"}'::jsonb, '{"Authorization": "Bearer t"}'::jsonb) as id`,
      [`${base}/items?sort=asc`],
    );
    const del = await requestId(`select net.http_delete($1) as id`, [`${base}/items/7`]);
    expect((await responseOf(get)).status_code).toBe(201);
    expect((await responseOf(del)).status_code).toBe(201);
    expect(received.find((each) => each.url === '/items?sort=asc&page=2')).toMatchObject({
      method: 'GET',
      headers: expect.objectContaining({ authorization: 'Bearer t' }),
    });
    expect(received.find((each) => each.url === '/items/7')).toMatchObject({ method: 'DELETE' });
  });

  it('records a timeout as timed out', async () => {
    const id = await requestId(`select net.http_get($1, timeout_milliseconds => 300) as id`, [
      `${base}/slow`,
    ]);
    expect(await responseOf(id)).toMatchObject({
      status_code: null,
      timed_out: true,
      error_msg: 'Timeout of 300 ms reached',
    });
  });
});

describe('hosts pg_net may reach', () => {
  it('refuses a host that is neither loopback nor in STACK_NET_ALLOWED_HOSTS', async () => {
    const id = await requestId(
      `select net.http_post('https://example.com/hook', '{}'::jsonb) as id`,
    );
    const response = await responseOf(id);
    expect(response.status_code).toBeNull();
    expect(response.error_msg).toMatch(/^Host example\.com is not reachable from the local stack/);
  });

  it('is for server-side roles only', async () => {
    const rows = await db.query<{ role: string; post: boolean }>(
      `select r.role, has_function_privilege(r.role,
         'net.http_post(text, jsonb, jsonb, jsonb, integer)', 'execute') as post
       from unnest(array['anon', 'authenticated', 'service_role']) as r(role)`,
    );
    expect(rows.rows).toEqual([
      { role: 'anon', post: false },
      { role: 'authenticated', post: false },
      { role: 'service_role', post: true },
    ]);
  });
});
