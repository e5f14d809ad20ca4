import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type StackConfig } from '../src/config.ts';
import { startFunctions, type RunningFunctions } from '../src/functions.ts';
import { denoExecutable } from '../src/functions/deno.ts';
import {
  downloadedFiles,
  freshDenoEnv,
  type FreshDenoEnv,
} from '../src/functions/fresh-machine.ts';
import { createGateway, listen, notImplemented } from '../src/gateway.ts';
import { createGatewayFront } from '../src/gateway-front.ts';
import { signToken } from '../src/jwt.ts';

/**
 * The functions runtime on a fixture project (a copy, so tests can edit it), behind a gateway of
 * its own: verify_jwt settings, the request and env a function gets, crash and boot failures,
 * dev reload, and that stopping leaves no Deno behind.
 */

const FIXTURE = fileURLToPath(new URL('./fixtures/functions/supabase', import.meta.url));
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const DENO = denoExecutable();

/** Deno processes running a function from under `dir`. */
function denoProcessesIn(dir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .filter(([, , args]) => args?.startsWith(`${DENO} run `) && args.includes(dir))
    .map(([, pid]) => Number(pid));
}

/** A private copy of the fixture project, so tests may edit it and count its processes. */
function copyFixture(): string {
  const project = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-functions-')),
    'supabase',
  );
  fs.cpSync(FIXTURE, project, { recursive: true });
  return project;
}

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean) {
  const deadline = Date.now() + 15_000;
  let last = await probe();
  while (!accept(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}

/** A request with headers fetch would refuse to send (Connection, TE, Keep-Alive). */
function rawRequest(
  pathAndQuery: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${pathAndQuery}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: text }));
        answer.on('error', reject);
      },
    );
    // The gateway may close the connection while the body is still going out: the answer counts.
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Functions whose connections the tests' front relays, from `<name>.short.test` hosts. */
const RELAYED = ['open', 'crash'];
const SHORT_SUFFIX = '.short.test';

const isShortDomain = (host: string) => host.endsWith(SHORT_SUFFIX);

function frontOf(server: http.Server, running: RunningFunctions, headTimeoutMs?: number) {
  return createGatewayFront(server, {
    isShortDomain,
    relay: (client, head, host) => running.relay(host.slice(0, -SHORT_SUFFIX.length), client, head),
    headTimeoutMs,
  });
}

let project: string;
let config: StackConfig;
let functions: RunningFunctions;
let gateway: http.Server;
let front: net.Server;
let base: string;
const logLines: string[] = [];

beforeAll(async () => {
  project = copyFixture();
  // The stack's own environment must not leak into functions.
  process.env.FIXTURE_STACK_ONLY = 'set in the stack process';
  // A functions/.env adds variables; it can never replace the ones the runtime sets.
  fs.writeFileSync(
    path.join(project, 'functions', '.env'),
    'FIXTURE_FROM_DOTENV=read from .env\nSUPABASE_URL=http://overridden.invalid\n',
  );
  config = loadConfig({
    stateDir: path.dirname(project),
    functionsDir: path.join(project, 'functions'),
    gatewayPort: await freePort(),
    functionsPort: await freePort(),
    watchFunctions: true,
    // No proxy in front: the caller's own X-Forwarded-For must not get through.
    trustedProxies: [],
  });
  functions = await startFunctions(config, (line) => logLines.push(line), { relayed: RELAYED });
  gateway = createGateway(config, {
    auth: notImplemented,
    storage: notImplemented,
    functions: functions.route,
    isShortDomain,
  });
  // As the stack runs it: every test below goes through the front, which hands what is not a
  // short domain's connection to the gateway.
  front = frontOf(gateway, functions);
  await listen(front, config.gatewayPort);
  base = `http://127.0.0.1:${config.gatewayPort}/functions/v1`;
});

afterAll(async () => {
  await functions?.stop();
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  gateway?.close();
  if (project) fs.rmSync(path.dirname(project), { recursive: true, force: true });
});

interface Echo {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  env: Record<string, string | null>;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port: the same for requests that shared a connection. */
  localPort: number | undefined;
}

/** A GET to `port` with `host` as its Host, on `agent`'s connections. */
function get(
  port: number,
  host: string,
  pathAndQuery: string,
  // A new connection unless told: a kept-alive one belongs to the host of its first request.
  {
    agent = false,
    headers = {},
  }: { agent?: http.Agent | false; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: pathAndQuery, agent, headers: { host, ...headers } },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            body,
            localPort: answer.socket?.localPort,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Sends `parts` on one new connection (`gapMs` apart) and resolves with all it got until closed. */
function exchange(port: number, parts: string[], gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.once('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && gapMs > 0) await new Promise((done) => setTimeout(done, gapMs));
        socket.write(part);
      }
    });
  });
}

/** The echo bodies of a raw exchange's answers, in order. */
const echoesIn = (text: string) =>
  text
    .split(/(?=HTTP\/1\.1 )/)
    .map((answer) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Echo);

describe('functions runtime', () => {
  it('boots one process for a function’s concurrent first requests', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${base}/open`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(denoProcessesIn(project)).toHaveLength(1);
  });

  it('serves a verify_jwt = false function without any JWT', async () => {
    const response = await fetch(`${base}/open`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Echo).method).toBe('GET');
  });

  it('hands the function the request as the caller sent it, at its Supabase URL', async () => {
    const response = await fetch(`${base}/open/deeper/path?q=1&q=2`, {
      method: 'PUT',
      headers: {
        Authorization: 'Bearer not-checked-here',
        apikey: 'caller-apikey',
        'x-forwarded-for': '203.0.113.7',
        'content-type': 'text/plain',
      },
      body: 'payload',
    });
    const echo = (await response.json()) as Echo;
    // As on Supabase: the gateway's host, the path from the function's name on, the query kept.
    expect(echo.url).toBe(`http://127.0.0.1:${config.gatewayPort}/open/deeper/path?q=1&q=2`);
    expect(echo.method).toBe('PUT');
    expect(echo.body).toBe('payload');
    expect(echo.headers).toMatchObject({
      authorization: 'Bearer not-checked-here',
      apikey: 'caller-apikey',
      // The gateway names the client it saw on its socket; the caller's own claim is dropped.
      'x-forwarded-for': '127.0.0.1',
      'x-real-ip': '127.0.0.1',
      'content-type': 'text/plain',
    });
  });

  it('drops hop-by-hop headers, and those the Connection header names, on the way', async () => {
    const answer = await rawRequest('/open', {
      headers: {
        connection: 'keep-alive, x-hop-secret',
        'x-hop-secret': 'for the next hop only',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'x-end-to-end': 'kept',
      },
    });
    const { headers } = JSON.parse(answer.body) as Echo;
    expect(headers['x-end-to-end']).toBe('kept');
    for (const name of ['x-hop-secret', 'keep-alive', 'te'])
      expect(headers[name], name).toBeUndefined();
    expect(headers.connection ?? 'keep-alive').not.toContain('x-hop-secret');
  });

  it('passes on the answer of a function that refuses a large body unread', async () => {
    // More than any socket buffer holds: the function answers while the client is still sending.
    const body = Buffer.alloc(32 * 1024 * 1024, 'x');
    const answer = await rawRequest('/open?refuse', { method: 'POST', body });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ refused: true });
    // The function did not crash: it is not replaced, and serves the next request.
    expect(logLines.join('\n')).not.toMatch(/functions\/open: request failed/);
    expect((await fetch(`${base}/open`)).status).toBe(200);
  });

  it('gives the function Supabase’s variables plus functions/.env, and nothing of the stack', async () => {
    const { env } = (await (await fetch(`${base}/open`)).json()) as Echo;
    expect(env).toEqual({
      SUPABASE_URL: `http://127.0.0.1:${config.gatewayPort}`,
      SUPABASE_ANON_KEY: config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
      SUPABASE_DB_URL: `postgresql://postgres:postgres@127.0.0.1:${config.dbPort}/postgres`,
      FIXTURE_FROM_DOTENV: 'read from .env',
      FIXTURE_STACK_ONLY: null,
    });
  });

  it('keeps verify_jwt on for functions the config does not open', async () => {
    const refused = await fetch(`${base}/hello`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ msg: 'Error: Missing authorization header' });

    const token = await signToken(config.jwtSecret, {
      role: 'authenticated',
      sub: crypto.randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const allowed = await fetch(`${base}/hello`, { headers: { Authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe('hello v1');
  });

  it('answers 404 for unknown functions and for folders that are not functions', async () => {
    for (const name of ['missing', '_shared', '.hidden', '']) {
      const response = await fetch(`${base}/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).toBe('Function not found');
    }
  });

  it('answers WORKER_ERROR when the function dies mid-request, then boots it again', async () => {
    const before = await (await fetch(`${base}/crash`)).text();
    expect(before).toMatch(/^alive \d+$/);

    const crashed = await fetch(`${base}/crash?exit`);
    expect(crashed.status).toBe(500);
    expect(await crashed.json()).toEqual({
      code: 'WORKER_ERROR',
      message: 'Function exited due to an error (please check logs)',
    });
    expect(logLines.join('\n')).toMatch(/functions\/crash: .*(exited|failed)/);

    const after = await fetch(`${base}/crash`);
    expect(after.status).toBe(200);
    expect(await after.text()).not.toBe(before);
  });

  it('keeps the function when a caller hangs up before its answer', async () => {
    const before = await (await fetch(`${base}/crash`)).text();
    expect(before).toMatch(/^alive \d+$/);
    const logged = logLines.length;

    // The caller gives up while the function still works on its answer.
    const hangUp = new AbortController();
    const slow = fetch(`${base}/crash?wait=1000`, { signal: hangUp.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    hangUp.abort();
    await expect(slow).rejects.toThrow();

    const after = await fetch(`${base}/crash`);
    expect(after.status).toBe(200);
    // The same process answers: a caller going away is no failure of the function.
    expect(await after.text()).toBe(before);
    expect(logLines.slice(logged).join('\n')).not.toMatch(/functions\/crash: request failed/);
  });

  it('answers BOOT_ERROR when the function fails to load, and logs why', async () => {
    const response = await fetch(`${base}/boot-error`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      code: 'BOOT_ERROR',
      message: 'Worker failed to boot (please check logs)',
    });
    expect(logLines.join('\n')).toContain('boot-error fixture failed at import');
  });

  it('reloads a function when its files change', async () => {
    const token = await signToken(config.jwtSecret, {
      role: 'anon',
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const hello = () =>
      fetch(`${base}/hello`, { headers: { Authorization: `Bearer ${token}` } }).then((r) =>
        r.text(),
      );
    expect(await hello()).toBe('hello v1');

    const entry = path.join(project, 'functions', 'hello', 'index.ts');
    fs.writeFileSync(entry, fs.readFileSync(entry, 'utf8').replace("'v1'", "'v2'"));
    expect(await eventually(hello, (text) => text === 'hello v2')).toBe('hello v2');

    const shared = path.join(project, 'functions', '_shared', 'greeting.ts');
    fs.writeFileSync(shared, "export const greeting = 'hi';\n");
    expect(await eventually(hello, (text) => text === 'hi v2')).toBe('hi v2');
  });
});

describe('connections relayed to a function (short domains)', () => {
  const host = `open${SHORT_SUFFIX}`;

  it('hands the function each request at its Supabase path, with the client the gateway names and its CORS', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(config.gatewayPort, host, '/deeper/path?q=1', {
        agent,
        // Nobody is a trusted proxy here: the caller's own claims count for nothing.
        headers: { 'x-forwarded-for': '203.0.113.7', 'x-shortlane-relay': 'guess 198.51.100.1' },
      });
      const second = await get(config.gatewayPort, host, '/', { agent });
      expect(second.localPort).toBe(first.localPort);
      for (const [answer, url] of [
        [first, `http://${host}/open/deeper/path?q=1`],
        [second, `http://${host}/open/`],
      ] as const) {
        expect(answer.status).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe('*');
        const echo = JSON.parse(answer.body) as Echo;
        expect(echo.url).toBe(url);
        expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
        expect(echo.headers['x-real-ip']).toBe('127.0.0.1');
        expect(echo.headers['x-shortlane-relay']).toBeUndefined();
        expect(echo.env.SUPABASE_URL).toBe(`http://127.0.0.1:${config.gatewayPort}`);
      }
    } finally {
      agent.destroy();
    }
  });

  it('answers pipelined requests on a relayed connection and on one the gateway serves', async () => {
    for (const [requestHost, path, url] of [
      [host, '/p', `http://${host}/open/p`],
      ['127.0.0.1', '/functions/v1/open/p', 'http://127.0.0.1/open/p'],
    ]) {
      const request = (last: boolean) =>
        `GET ${path} HTTP/1.1\r\nHost: ${requestHost}\r\n${last ? 'Connection: close\r\n' : ''}\r\n`;
      const text = await exchange(config.gatewayPort, [request(false) + request(true)]);
      expect(text.match(/HTTP\/1\.1 200/g), text).toHaveLength(2);
      expect(echoesIn(text).map((echo) => echo.url)).toEqual([url, url]);
    }
  });

  it('hands on request bodies of a relayed connection untouched, and each next request as its own', async () => {
    // A body that looks like a request head, then a chunked one, cut across writes.
    const inner = `GET /smuggled HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    const parts = [
      `POST /one HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${inner.length}\r\n\r\n${inner.slice(0, 9)}`,
      `${inner.slice(9)}POST /two HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab`,
      `cd\r\n0\r\n\r\nGET /three HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ];
    const echoes = echoesIn(await exchange(config.gatewayPort, parts, 50));
    expect(echoes.map((echo) => [echo.method, echo.url, echo.body])).toEqual([
      ['POST', `http://${host}/open/one`, inner],
      ['POST', `http://${host}/open/two`, 'abcd'],
      ['GET', `http://${host}/open/three`, ''],
    ]);
    for (const echo of echoes) {
      expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(echo.headers['x-shortlane-relay']).toBeUndefined();
    }
  });

  it('relays a body and an answer many reads long, whole, to a visitor slow to read', async () => {
    const body = '0123456789'.repeat(400_000);
    const head = `POST /big HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const socket = net.connect({ port: config.gatewayPort, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(head + body);
    // Unread, the answer fills the socket's buffers: the relay must hold back, then go on.
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.resume();
    await closed;
    const [echo] = echoesIn(Buffer.concat(chunks).toString('latin1'));
    expect(echo?.body).toBe(body);
  });

  it('leaves a connection that began with another host to the gateway, short domains included', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const rest = await get(config.gatewayPort, '127.0.0.1', '/functions/v1/open', { agent });
      expect((JSON.parse(rest.body) as Echo).url).toBe('http://127.0.0.1/open');
      // The gateway's own short-domain route: to `r`, which this project lacks.
      const short = await get(config.gatewayPort, host, '/abc', { agent });
      expect(short.localPort).toBe(rest.localPort);
      expect(short.status).toBe(404);
      expect(short.body).toBe('Function not found');
    } finally {
      agent.destroy();
    }
  });

  it('keeps the function when a relayed visitor hangs up before the answer', async () => {
    const crashHost = `crash${SHORT_SUFFIX}`;
    const before = (await get(config.gatewayPort, crashHost, '/')).body;
    expect(before).toMatch(/^alive \d+$/);
    const logged = logLines.length;
    const socket = net.connect({ port: config.gatewayPort, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    socket.write(`GET /?wait=1000 HTTP/1.1\r\nHost: ${crashHost}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    expect((await get(config.gatewayPort, crashHost, '/')).body).toBe(before);
    expect(logLines.slice(logged).join('\n')).not.toMatch(/functions\/crash: request failed/);
  });

  it('ends relayed connections when the function reloads; the next one reaches the new process', async () => {
    const socket = net.connect({ port: config.gatewayPort, host: '127.0.0.1' });
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`GET /before HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await eventually(
      async () => text,
      (got) => got.includes('/open/before'),
    );
    const entry = path.join(project, 'functions', 'open', 'index.ts');
    fs.appendFileSync(entry, '\n// edited by the relay test\n');
    await closed;
    const after = await get(config.gatewayPort, host, '/after');
    expect((JSON.parse(after.body) as Echo).url).toBe(`http://${host}/open/after`);
  });

  it('lets the gateway answer a first head too long to relay (431)', async () => {
    const text = await exchange(config.gatewayPort, [
      `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 431/);
  });

  describe('behind a trusted proxy, with a short wait for the first head', () => {
    let trustedFunctions: RunningFunctions;
    let trustedGateway: http.Server;
    let trustedFront: net.Server;
    let port: number;

    beforeAll(async () => {
      const trustedConfig = loadConfig({
        stateDir: path.dirname(project),
        functionsDir: path.join(project, 'functions'),
        gatewayPort: await freePort(),
        functionsPort: await freePort(),
        watchFunctions: false,
        trustedProxies: ['127.0.0.1'],
      });
      port = trustedConfig.gatewayPort;
      trustedFunctions = await startFunctions(trustedConfig, () => undefined, {
        relayed: RELAYED,
      });
      trustedGateway = createGateway(trustedConfig, {
        auth: notImplemented,
        storage: notImplemented,
        functions: trustedFunctions.route,
        isShortDomain,
      });
      trustedFront = frontOf(trustedGateway, trustedFunctions, 300);
      await listen(trustedFront, port);
    });

    afterAll(async () => {
      await trustedFunctions?.stop();
      await new Promise<void>((resolve) =>
        trustedFront ? trustedFront.close(() => resolve()) : resolve(),
      );
      trustedGateway?.close();
    });

    it('names each request’s client from its own X-Forwarded-For; a forged relay line is ignored', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const clients: string[] = [];
        for (const headers of [
          { 'x-forwarded-for': '203.0.113.1' },
          { 'x-forwarded-for': '198.51.100.9, 203.0.113.2', 'x-shortlane-relay': 'nope 10.0.0.1' },
          {} as Record<string, string>,
        ]) {
          const answer = await get(port, host, '/', { agent, headers });
          const echo = JSON.parse(answer.body) as Echo;
          expect(echo.headers['x-shortlane-relay']).toBeUndefined();
          expect(echo.headers['x-real-ip']).toBe(echo.headers['x-forwarded-for']);
          clients.push(echo.headers['x-forwarded-for']!);
        }
        expect(clients).toEqual(['203.0.113.1', '203.0.113.2', '127.0.0.1']);
      } finally {
        agent.destroy();
      }
    });

    it('hands a slow first head to the gateway, which answers it', async () => {
      const text = await exchange(
        port,
        ['GET /functions/v1/open HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'Connection: close\r\n\r\n'],
        600,
      );
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(echoesIn(text).map((echo) => echo.url)).toEqual(['http://127.0.0.1/open']);
    });
  });
});

describe('functions runtime, stopped', () => {
  it('stops every Deno process it started', async () => {
    await fetch(`${base}/open`);
    expect(denoProcessesIn(project).length).toBeGreaterThan(0);
    await functions.stop();
    expect(denoProcessesIn(project)).toEqual([]);
  });
});

describe('functions runtime whose stack is killed', () => {
  let killedProject: string | undefined;
  afterAll(() => {
    if (killedProject) fs.rmSync(path.dirname(killedProject), { recursive: true, force: true });
  });

  it('leaves no Deno behind even after SIGKILL', async () => {
    killedProject = copyFixture();
    const functionsDir = path.join(killedProject, 'functions');
    const port = await freePort();
    const script = `
      import { loadConfig } from ${JSON.stringify(path.join(SRC, 'config.ts'))};
      import { startFunctions } from ${JSON.stringify(path.join(SRC, 'functions.ts'))};
      await startFunctions(
        loadConfig({ functionsDir: ${JSON.stringify(functionsDir)}, functionsPort: ${port}, watchFunctions: false }),
        () => {},
      );
      const response = await fetch('http://127.0.0.1:${port}/open');
      console.log('served', response.status);
    `;
    const stack = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      stack.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('served 200')) resolve();
      });
      stack.once('exit', (code) => reject(new Error(`the stack exited early (${code})`)));
    });
    expect(denoProcessesIn(functionsDir).length).toBe(1);

    stack.kill('SIGKILL');
    const left = await eventually(
      async () => denoProcessesIn(functionsDir),
      (pids) => pids.length === 0,
    );
    expect(left).toEqual([]);
  });
});

describe('functions runtime on a fresh machine', () => {
  let fresh: FreshDenoEnv;
  let running: RunningFunctions | undefined;
  const saved = {
    DENO_DIR: process.env.DENO_DIR,
    NPM_CONFIG_REGISTRY: process.env.NPM_CONFIG_REGISTRY,
  };
  const restore = (name: keyof typeof saved) => {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  };

  beforeAll(async () => {
    // An empty Deno cache and an npm registry that hangs up: what a clean machine behind a
    // TLS-intercepting proxy gives Deno after `npm ci`.
    fresh = await freshDenoEnv();
    Object.assign(process.env, fresh.env);
    running = await startFunctions(
      loadConfig({ functionsPort: await freePort(), watchFunctions: false }),
      (line) => logLines.push(line),
    );
  });

  afterAll(async () => {
    await running?.stop();
    restore('DENO_DIR');
    restore('NPM_CONFIG_REGISTRY');
    await fresh?.close();
  });

  // links loads geoip-country, postgres and zod; bulk-import supabase-js and SheetJS.
  it.each(['links', 'bulk-import'])(
    'boots %s from node_modules, downloading nothing',
    async (name) => {
      const response = await fetch(`http://127.0.0.1:${running?.port}/${name}`, {
        method: 'OPTIONS',
      });
      expect(response.status, logLines.filter((line) => line.includes(name)).join('\n')).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(downloadedFiles(fresh.env.DENO_DIR)).toEqual([]);
    },
  );
});
