import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createGatewayFront } from './gateway-front.ts';
import { createGateway, notImplemented, restRelayRules } from './gateway.ts';
import { CORS_ANSWER_HEADERS } from './http.ts';
import { parseRequestHead } from './http-framing.ts';
import { createRestRelay, type RestRelay } from './rest-relay.ts';

/**
 * The REST relay in process: a front and its relay in front of a stand-in gateway server (which
 * says it served a request) and a stand-in PostgREST (Node's HTTP server, whose parser checks the
 * relay's framing), reached over real sockets.
 */

const config = loadConfig({ trustedProxies: ['10.0.0.0/8'] });
const KEY = config.anonKey;
const services = {
  auth: notImplemented,
  storage: notImplemented,
  functions: () => {},
  isShortDomain: (host: string) => host === 'shrt.test',
};
const rules = restRelayRules(config, services);

const head = (text: string) => parseRequestHead(text.replace(/\r\n\r\n$/, ''))!;
/** The fields of a head `request` sends on, as [name, value] pairs. */
function forwarded(text: string, peer = '127.0.0.1'): { line: string; fields: string[][] } {
  const out = rules.request(head(text), peer);
  if (out === undefined) throw new Error('not relayed');
  const [line, ...lines] = out.slice(0, -4).split('\r\n');
  return {
    line: line!,
    fields: lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
  };
}

describe('REST rules on a raw head', () => {
  it('strips /rest/v1, drops the apikey header, adds it as bearer, names the client, keeps Host', () => {
    expect(
      forwarded(
        `GET /rest/v1/links?select=id&slug=eq.a.b HTTP/1.1\r\nHost: api.test:54321\r\napikey: ${KEY}\r\nX-Forwarded-For: 6.6.6.6\r\nX-Real-IP: 6.6.6.6\r\nAccept: */*\r\n\r\n`,
        '::ffff:127.0.0.1',
      ),
    ).toEqual({
      line: 'GET /links?select=id&slug=eq.a.b HTTP/1.1',
      fields: [
        ['Host', 'api.test:54321'],
        ['Accept', '*/*'],
        ['authorization', `Bearer ${KEY}`],
        ['x-forwarded-for', '127.0.0.1'],
        ['x-real-ip', '127.0.0.1'],
      ],
    });
  });

  it('keeps a non-empty Authorization, replaces an empty one; takes the key from the query', () => {
    const withBearer = forwarded(
      `POST /rest/v1/rpc/f HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer user\r\nApiKey: ${KEY}\r\n\r\n`,
    );
    expect(withBearer.fields.filter(([name]) => /authorization/i.test(name!))).toEqual([
      ['Authorization', 'Bearer user'],
    ]);
    const empty = forwarded(
      `GET /rest/v1/t?apikey=${KEY} HTTP/1.1\r\nHost: a\r\nAuthorization:\r\n\r\n`,
    );
    expect(empty.line).toBe(`GET /t?apikey=${KEY} HTTP/1.1`);
    expect(empty.fields.filter(([name]) => /authorization/i.test(name!))).toEqual([
      ['authorization', `Bearer ${KEY}`],
    ]);
  });

  it('drops hop-by-hop fields and those Connection names', () => {
    const { fields } = forwarded(
      `GET /rest/v1 HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\nConnection: keep-alive, X-Hop\r\nKeep-Alive: 5\r\nX-Hop: 1\r\nTE: trailers\r\nProxy-Authorization: x\r\nPrefer: count=exact\r\n\r\n`,
    );
    expect(fields.map(([name]) => name)).toEqual([
      'Host',
      'Prefer',
      'authorization',
      'x-forwarded-for',
      'x-real-ip',
    ]);
  });

  it('names the client a trusted proxy forwards for', () => {
    const { fields } = forwarded(
      `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\nX-Forwarded-For: 6.6.6.6, 203.0.113.9\r\nX-Forwarded-For: 10.1.1.1\r\n\r\n`,
      '10.0.0.2',
    );
    expect(fields.find(([name]) => name === 'x-forwarded-for')).toEqual([
      'x-forwarded-for',
      '203.0.113.9',
    ]);
  });

  it('parses a target the URL parser would change as the HTTP path does', () => {
    expect(
      forwarded(`GET /rest/v1/a/../t?q="x'" HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n`).line,
    ).toBe(`GET /t?q=%22x%27%22 HTTP/1.1`);
    expect(forwarded(`GET /rest/v1? HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n`).line).toBe(
      'GET / HTTP/1.1',
    );
  });

  it('leaves to the HTTP server what it would not proxy as it is', () => {
    const ok = `Host: a\r\napikey: ${KEY}\r\n`;
    for (const text of [
      `OPTIONS /rest/v1/t HTTP/1.1\r\n${ok}\r\n`,
      `GET /auth/v1/settings HTTP/1.1\r\n${ok}\r\n`,
      `GET /rest/v2/t HTTP/1.1\r\n${ok}\r\n`,
      `GET /rest/v1/../../auth/v1/user HTTP/1.1\r\n${ok}\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: nope\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey:\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\n${ok}apikey: ${KEY}\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\napikey: ${KEY}\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\nHost: shrt.test:54321\r\napikey: ${KEY}\r\n\r\n`,
      `POST /rest/v1/t HTTP/1.1\r\n${ok}Expect: 100-continue\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\n${ok}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      `GET /rest/v1/t HTTP/1.1\r\n${ok}Connection: close\r\n\r\n`,
    ])
      expect(rules.request(head(text), '127.0.0.1'), JSON.stringify(text)).toBeUndefined();
  });

  it("withholds PostgREST's CORS fields, the gateway's own going after its answer's", () => {
    expect(rules.withholds('access-control-allow-origin')).toBe(true);
    expect(rules.withholds('access-control-expose-headers')).toBe(true);
    expect(rules.withholds('content-range')).toBe(false);
    expect(rules.answerFields).toEqual(Object.entries(CORS_ANSWER_HEADERS).flat());
  });
});

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
  socket: net.Socket;
}

describe('REST relay', () => {
  let seen: Seen[] = [];
  let answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
  const postgrest = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        body,
        socket: req.socket,
      });
      answer(req, res, body);
    });
  });
  const gateway = http.createServer((req, res) => {
    res.end(`gateway ${req.method} ${req.url}`);
  });
  let relay: RestRelay;
  const front = createGatewayFront(gateway, {
    isShortDomain: () => false,
    relay: async () => false,
    rest: (client, read, toGateway) => relay.take(client, read, toGateway),
  });
  let frontPort = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => postgrest.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontPort = (front.address() as net.AddressInfo).port;
    relay = createRestRelay({
      rules,
      port: (postgrest.address() as net.AddressInfo).port,
      idleTimeoutMs: 5_000,
    });
  });
  afterEach(() => {
    seen = [];
  });
  afterAll(async () => {
    await relay.drain(Date.now());
    front.close();
    postgrest.closeAllConnections();
    postgrest.close();
  });

  /** Writes `parts` on one connection (waiting a little between them), reads until `done`. */
  async function exchange(parts: string[], done: (text: string) => boolean): Promise<string> {
    const socket = net.connect(frontPort, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    const ended = new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (done(text)) resolve();
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    for (const part of parts) {
      socket.write(part, 'latin1');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await ended;
    socket.destroy();
    return text;
  }

  const count = (text: string, word: string) => text.split(word).length - 1;

  it('relays GET, chunked POST and PATCH with bodies on one connection, cut at every byte', async () => {
    answer = (req, res, body) => {
      if (req.method === 'GET') {
        res.writeHead(200, [
          'Content-Type',
          'application/json',
          'Access-Control-Allow-Origin',
          'x',
        ]);
        res.write('[{"id":');
        res.end('1}]');
      } else if (req.method === 'POST') {
        res.writeHead(201, ['Content-Length', String(body.length), 'Location', '/t?id=eq.1']);
        res.end(body);
      } else {
        res.writeHead(204);
        res.end();
      }
    };
    const requests =
      `GET /rest/v1/t?id=eq.1 HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n` +
      `POST /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `4\r\n{"a"\r\n3;x=1\r\n:1}\r\n0\r\n\r\n` +
      `PATCH /rest/v1/t?id=eq.1 HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\nContent-Length: 7\r\n\r\n` +
      `{"a":2}`;
    const text = await exchange([...requests], (t) => t.includes('204 No Content'));
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['GET', '/t?id=eq.1', ''],
      ['POST', '/t', '{"a":1}'],
      ['PATCH', '/t?id=eq.1', '{"a":2}'],
    ]);
    // One kept-alive PostgREST connection for the client's connection.
    expect(new Set(seen.map(({ socket }) => socket)).size).toBe(1);
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[0]).toContain('Transfer-Encoding: chunked\r\n');
    expect(answers[0]).toMatch(/\r\n\r\n7\r\n\[\{"id":\r\n3\r\n1\}\]\r\n0\r\n\r\n$/);
    expect(answers[0]).not.toContain('Access-Control-Allow-Origin: x');
    expect(count(answers[0]!, 'access-control-allow-origin: *\r\n')).toBe(1);
    expect(answers[0]).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n');
    expect(answers[1]).toMatch(/^HTTP\/1\.1 201 Created\r\n[^]*Location: \/t\?id=eq\.1\r\n/);
    expect(answers[1]).toMatch(/\r\n\r\n\{"a":1\}$/);
    expect(answers[2]).toMatch(/^HTTP\/1\.1 204 No Content\r\n[^]*\r\n\r\n$/);
    expect(count(text, 'Connection: keep-alive\r\n')).toBe(3);
  });

  it('hands the connection to the HTTP server at its first other request, pipelined or not', async () => {
    answer = (_req, res) => res.end('rows');
    const rest = `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n`;
    const text = await exchange(
      [
        rest,
        rest + `GET /auth/v1/settings HTTP/1.1\r\nHost: a\r\n\r\n` + rest,
        `OPTIONS /rest/v1/t HTTP/1.1\r\nHost: a\r\n\r\n`,
      ],
      (t) => t.includes('gateway OPTIONS'),
    );
    // Two REST answers relayed, then the server answers all the rest, REST included.
    expect(seen).toHaveLength(2);
    expect(count(text, '\r\n\r\nrows')).toBe(2);
    expect(text).toMatch(
      /gateway GET \/auth\/v1\/settings[^]*gateway GET \/rest\/v1\/t[^]*gateway OPTIONS/,
    );
  });

  it('hands a refused key to the HTTP server (which answers the 401s)', async () => {
    const text = await exchange(
      [`GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: bad\r\n\r\n`],
      (t) => t.includes('gateway GET'),
    );
    expect(seen).toHaveLength(0);
    expect(text).toContain('gateway GET /rest/v1/t');
  });

  it('passes a body it cannot frame on as it is, and closes after the answer', async () => {
    const text = await exchange(
      [
        `POST /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      ],
      () => false,
    );
    // Node's server (PostgREST's stand-in) refuses the chunk size: its 400 reaches the client,
    // then the connection ends.
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*Connection: close\r\n/);
    expect(seen).toHaveLength(0);
  });

  it('answers 502 for a PostgREST gone before answering, and goes on with a new connection', async () => {
    let calls = 0;
    answer = (req, res) => {
      if (calls++ === 0) req.socket.destroy();
      else res.end('rows');
    };
    const rest = `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n`;
    const text = await exchange([rest, rest], (t) => t.includes('rows'));
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(
      /^HTTP\/1\.1 502 Bad Gateway\r\ncontent-type: application\/json\r\n/,
    );
    expect(answers[0]).toContain('access-control-allow-origin: *\r\n');
    expect(answers[0]).toMatch(
      /\r\n\r\n\{"message":"An invalid response was received from the upstream server"\}$/,
    );
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nrows$/);
  });
});

describe('REST relay, answers written as PostgREST writes them', () => {
  // PostgREST (Warp) writes no Connection field: its head goes on as it came, the gateway's
  // fields after it. (Node's server, the stand-in above, always writes one.)
  const WARP_HEAD =
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nDate: Fri, 27 Nov 2026 20:00:00 GMT\r\n' +
    'Server: postgrest/12.0.2\r\nContent-Range: 0-0/*\r\nContent-Type: application/json; charset=utf-8\r\n';
  const BODY = '2\r\n[]\r\n0\r\n\r\n';
  const postgrest = net.createServer((socket) => {
    let pending = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        pending = pending.slice(end + 4);
        socket.write(`${WARP_HEAD}\r\n${BODY}`, 'latin1');
      }
    });
  });

  it('passes the head on byte for byte, with the CORS of an answer and the keep-alive after it', async () => {
    await new Promise<void>((resolve) => postgrest.listen(0, '127.0.0.1', resolve));
    const relay = createRestRelay({
      rules,
      port: (postgrest.address() as net.AddressInfo).port,
      idleTimeoutMs: 5_000,
    });
    const front = createGatewayFront(http.createServer(), {
      isShortDomain: () => false,
      relay: async () => false,
      rest: (client, read, toGateway) => relay.take(client, read, toGateway),
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((front.address() as net.AddressInfo).port, '127.0.0.1');
    const request = `GET /rest/v1/t HTTP/1.1\r\nHost: a\r\napikey: ${KEY}\r\n\r\n`;
    const expected =
      WARP_HEAD +
      'access-control-allow-origin: *\r\n' +
      `access-control-expose-headers: ${CORS_ANSWER_HEADERS['access-control-expose-headers']}\r\n` +
      'Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n' +
      BODY;
    let text = '';
    socket.setEncoding('latin1');
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.length >= expected.length * 2) resolve();
      });
      socket.on('error', reject);
      // Pipelined: the second waits in the relay for the first's answer.
      socket.write(request + request, 'latin1');
    });
    expect(text).toBe(expected + expected);
    socket.destroy();
    await relay.drain(Date.now());
    front.close();
    postgrest.close();
  });
});

describe('REST relay to a PostgREST that is not running', () => {
  it('answers 502 as the HTTP path does', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const deadConfig = { ...config, postgrestPort: deadPort };
    const gateway = createGateway(deadConfig, services);
    const relay = createRestRelay({
      rules: restRelayRules(deadConfig, services),
      port: deadPort,
      idleTimeoutMs: 5_000,
    });
    const front = createGatewayFront(gateway, {
      isShortDomain: () => false,
      relay: async () => false,
      rest: (client, read, toGateway) => relay.take(client, read, toGateway),
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}/rest/v1/t`;
    const answer = async (headers: Record<string, string>) => {
      const response = await fetch(url, { headers: { apikey: KEY, ...headers } });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        cors: response.headers.get('access-control-allow-origin'),
        body: await response.json(),
      };
    };
    const relayed = await answer({});
    // A request the relay leaves to the HTTP server.
    const proxied = await answer({ connection: 'close' });
    expect(relayed).toEqual({
      status: 502,
      type: 'application/json',
      cors: '*',
      body: { message: 'An invalid response was received from the upstream server' },
    });
    expect(proxied).toEqual(relayed);
    await relay.drain(Date.now());
    front.close();
  });
});
