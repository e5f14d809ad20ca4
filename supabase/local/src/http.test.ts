import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { json, serveWebRequest, type WebHandler } from './http.ts';

/**
 * A handler may answer before reading the body (an upload refused for its size). What the
 * server then does with the unread bytes decides whether the client's connection survives:
 * these tests speak raw HTTP/1.1 over one socket to see exactly that.
 */

const LIMIT = 1024 * 1024;

/** Refuses POST /refuse without reading a byte; echoes the body's length on POST /count. */
const handler: WebHandler = async (request) => {
  if (new URL(request.url).pathname === '/refuse') return json({ refused: true }, 413);
  const body = await request.arrayBuffer();
  return json({ received: body.byteLength });
};

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(): Promise<number> {
  server = http.createServer((req, res) => {
    void serveWebRequest(req, res, 'http://127.0.0.1', handler, { unreadBodyLimit: LIMIT });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as AddressInfo).port;
}

function post(path: string, size: number): Buffer {
  const head = `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Length: ${size}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(size, 0x61)]);
}

/** Writes `requests` on one connection and collects what comes back until `done` says so. */
async function exchange(
  port: number,
  requests: Buffer[],
  done: (text: string) => boolean,
): Promise<{ text: string; closedByServer: boolean }> {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  let closedByServer = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer; got:\n${text}`));
    }, 3000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedByServer });
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (done(text) && !closedByServer) setTimeout(finish, 50);
    });
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('error', reject);
    for (const request of requests) socket.write(request);
  });
}

const answers = (text: string) => text.match(/^HTTP\/1\.1 \d+/gm) ?? [];

describe('serveWebRequest and bodies left unread', () => {
  it('reads and drops a short unread rest, so the next request on the connection is served', async () => {
    const port = await start();
    const { text, closedByServer } = await exchange(
      port,
      [post('/refuse', LIMIT / 2), post('/count', 5)],
      (got) => got.includes('{"received":5}'),
    );
    expect(answers(text)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    expect(text).toContain('{"refused":true}');
    expect(text.toLowerCase()).not.toContain('connection: close');
    expect(closedByServer).toBe(false);
  });

  it('closes the connection after answering when the unread rest is over the limit', async () => {
    const port = await start();
    const { text, closedByServer } = await exchange(port, [post('/refuse', LIMIT * 4)], (got) =>
      got.includes('{"refused":true}'),
    );
    expect(answers(text)).toEqual(['HTTP/1.1 413']);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('{"refused":true}');
    expect(closedByServer).toBe(true);
  });

  it('keeps the connection when the handler read the whole body', async () => {
    const port = await start();
    const { text, closedByServer } = await exchange(
      port,
      [post('/count', LIMIT * 4), post('/count', 3)],
      (got) => got.includes('{"received":3}'),
    );
    expect(text).toContain(`{"received":${LIMIT * 4}}`);
    expect(answers(text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(closedByServer).toBe(false);
  });
});
