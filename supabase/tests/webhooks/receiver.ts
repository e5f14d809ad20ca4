import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A webhook receiver on loopback. `/ok/…` answers 204; `/fail/<n>/…` answers 500 to its first n
 * requests, then 204; `/down/…` always 500.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      received.push({
        path,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const failFirst = /^\/fail\/(\d+)\//.exec(path);
      const seen = received.filter((each) => each.path === path).length;
      const failing =
        path.startsWith('/down/') || (failFirst !== null && seen <= Number(failFirst[1]));
      res.writeHead(failing ? 500 : 204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    at: (path: string) => received.filter((each) => each.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
