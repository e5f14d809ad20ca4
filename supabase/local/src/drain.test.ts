import http from 'node:http';
import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainable } from './drain.ts';

interface Answer {
  status: number;
  connection: string | undefined;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/**
 * A server that answers `/<ms>` with a 302 after that many milliseconds, and `/stream/<ms>` with
 * its headers at once and the end of its body that many milliseconds later.
 */
async function slowServer() {
  const server = http.createServer((request, response) => {
    const [, kind, ms] = (request.url ?? '').split('/');
    if (kind === 'stream') {
      response.writeHead(200, ['Content-Type', 'text/plain']);
      response.write('start');
      setTimeout(() => response.end('end'), Number(ms));
      return;
    }
    setTimeout(() => {
      response.writeHead(302, ['Location', 'https://example.com/']);
      response.end();
    }, Number(kind));
  });
  const drain = drainable(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as net.AddressInfo).port, drain };
}

function get(port: number, path: string, agent: http.Agent): Promise<Answer | Error> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection });
      })
      .on('error', resolve);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('drainable', () => {
  it('answers the requests in flight, then refuses new connections', async () => {
    const { port, drain } = await slowServer();
    const agent = new http.Agent({ keepAlive: true });
    const inFlight = get(port, '/200', agent);
    await sleep(50);

    const drained = drain(Date.now() + 5_000);

    expect(await inFlight).toEqual({ status: 302, connection: 'close' });
    await drained;
    const fresh = await get(port, '/0', new http.Agent());
    expect(fresh).toBeInstanceOf(Error);
    expect((fresh as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('answers a request that comes on a kept-alive connection while others drain, and closes it', async () => {
    const { port, drain } = await slowServer();
    // Keeps the drain going meanwhile.
    const long = get(port, '/stream/1000', new http.Agent());
    // Its headers (keep-alive) are out before the drain begins; the agent then reuses its
    // connection for the next request.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const short = get(port, '/stream/150', agent);
    await sleep(50);

    const drained = drain(Date.now() + 5_000);
    const next = get(port, '/0', agent);

    expect(await short).toEqual({ status: 200, connection: 'keep-alive' });
    expect(await next).toEqual({ status: 302, connection: 'close' });
    expect(await long).toMatchObject({ status: 200 });
    await drained;
  });

  it('cuts the requests still running at the deadline', async () => {
    const { port, drain } = await slowServer();
    const stuck = get(port, '/60000', new http.Agent());
    await sleep(50);

    const started = Date.now();
    await drain(started + 300);

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stuck).toBeInstanceOf(Error);
  });
});
