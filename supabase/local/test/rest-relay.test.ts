import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRestFixture, type RestFixture } from './rest-fixture.ts';

/**
 * REST through the gateway's byte-level relay (rest-relay.ts), as clients use it: several requests
 * with bodies on one kept-alive connection, a browser's connection that goes on to Auth and the
 * functions (handed to the gateway's HTTP server), refused keys, and a large answer to a client
 * slow to read it. Answers are read with Node's own HTTP client, which checks their framing.
 */

const env = inject('stackEnv');
let fx: RestFixture;

beforeAll(async () => {
  fx = await createRestFixture(env);
});

afterAll(async () => {
  await fx?.drop();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: net.Socket;
}

/** One request on `agent`'s one kept-alive connection. */
function send(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  chunked = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${env.SUPABASE_URL}${path}`, { agent, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: text, socket: req.socket! }),
      );
    });
    req.on('error', reject);
    if (body !== undefined && chunked) {
      // Two writes without a length: Node sends the body chunked.
      req.write(body.slice(0, 3));
      req.end(body.slice(3));
    } else req.end(body);
  });
}

const oneConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

describe('REST relayed by the gateway', () => {
  it('answers GET, POST and PATCH with bodies on one kept-alive connection', async () => {
    const agent = oneConnection();
    const as = {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: `Bearer ${fx.alice.token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    };
    const created = await send(
      agent,
      'POST',
      `/rest/v1/${fx.books}?select=title,isbn,owner_id`,
      as,
      JSON.stringify({ author_id: fx.ada.id, title: 'Relayed', isbn: 'isbn-relay-1' }),
      true,
    );
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toEqual([
      { title: 'Relayed', isbn: 'isbn-relay-1', owner_id: fx.alice.id },
    ]);
    expect(created.headers['access-control-allow-origin']).toBe('*');
    const patched = await send(
      agent,
      'PATCH',
      `/rest/v1/${fx.books}?isbn=eq.isbn-relay-1&select=title`,
      as,
      JSON.stringify({ title: 'Relayed, again' }),
    );
    expect(patched.status).toBe(200);
    expect(JSON.parse(patched.body)).toEqual([{ title: 'Relayed, again' }]);
    const read = await send(
      agent,
      'GET',
      `/rest/v1/${fx.books}?isbn=eq.isbn-relay-1&select=title`,
      {
        apikey: env.SUPABASE_ANON_KEY,
        authorization: `Bearer ${fx.alice.token}`,
      },
    );
    expect(JSON.parse(read.body)).toEqual([{ title: 'Relayed, again' }]);
    // Bob reads nothing of Alice's private book: the bearer the relay passed on is his.
    const asBob = await send(agent, 'GET', `/rest/v1/${fx.books}?isbn=eq.isbn-relay-1`, {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: `Bearer ${fx.bob.token}`,
    });
    expect(JSON.parse(asBob.body)).toEqual([]);
    expect(new Set([created, patched, read, asBob].map((answer) => answer.socket)).size).toBe(1);
    agent.destroy();
  });

  it('answers Auth and the functions on a connection that began with REST, and REST after', async () => {
    const agent = oneConnection();
    const key = { apikey: env.SUPABASE_ANON_KEY };
    const rest = `/rest/v1/${fx.authors}?select=name&order=id`;
    const first = await send(agent, 'GET', rest, key);
    const settings = await send(agent, 'GET', '/auth/v1/settings', key);
    const whoami = await send(
      agent,
      'POST',
      '/functions/v1/whoami',
      {
        ...key,
        authorization: `Bearer ${fx.alice.token}`,
        'content-type': 'application/json',
      },
      '{}',
    );
    const again = await send(agent, 'GET', rest, key);
    expect(new Set([first, settings, whoami, again].map((answer) => answer.socket)).size).toBe(1);
    agent.destroy();

    // The same requests on fresh connections answer the same.
    const fresh = async (path: string, init: RequestInit) => {
      const response = await fetch(`${env.SUPABASE_URL}${path}`, init);
      return { status: response.status, body: await response.text() };
    };
    expect({ status: first.status, body: first.body }).toEqual(await fresh(rest, { headers: key }));
    expect(again.body).toBe(first.body);
    expect({ status: settings.status, body: settings.body }).toEqual(
      await fresh('/auth/v1/settings', { headers: key }),
    );
    expect(whoami.status).toBe(200);
    expect(JSON.parse(whoami.body)).toMatchObject({ user_id: fx.alice.id });
  });

  it('refuses a missing or unknown key on a kept-alive REST connection as before', async () => {
    const agent = oneConnection();
    const ok = await send(agent, 'GET', `/rest/v1/${fx.authors}?select=id`, {
      apikey: env.SUPABASE_ANON_KEY,
    });
    expect(ok.status).toBe(200);
    const missing = await send(agent, 'GET', `/rest/v1/${fx.authors}?select=id`, {});
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toEqual({ message: 'No API key found in request' });
    expect(missing.headers['access-control-allow-origin']).toBe('*');
    const unknown = await send(agent, 'GET', `/rest/v1/${fx.authors}?select=id`, { apikey: 'no' });
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body)).toEqual({ message: 'Invalid authentication credentials' });
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    agent.destroy();
  });

  it('sends a large answer whole to a client slow to read it, then serves its next request', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    await fx.db.query(
      `insert into public.${fx.books} (owner_id, author_id, title, isbn, is_public)
       values ($1, $2, $3, 'isbn-relay-big', true)`,
      [fx.alice.id, fx.ada.id, big],
    );
    const socket = net.connect(Number(new URL(env.SUPABASE_URL).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const get = (query: string) =>
      `GET /rest/v1/${fx.books}?${query} HTTP/1.1\r\nHost: localhost\r\napikey: ${env.SUPABASE_ANON_KEY}\r\n\r\n`;
    socket.write(
      get('isbn=eq.isbn-relay-big&select=title') + get('isbn=eq.isbn-ada-2&select=isbn'),
    );
    socket.pause();
    // Nothing read for a while: the gateway holds what the kernel does not.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let received = Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        // Slow: a pause after each read.
        socket.pause();
        setTimeout(() => socket.resume(), 2);
        if (received.includes('"isbn-ada-2"')) resolve();
      });
      socket.on('error', reject);
      socket.resume();
    });
    socket.destroy();
    const text = received.toString('latin1');
    const answers = text.split(/(?=HTTP\/1\.1 200 OK\r\n)/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toContain(`[{"title":"${big}"}]`);
    expect(answers[1]).toMatch(/\[\{"isbn":"isbn-ada-2"\}\]/);
  });
});
