import net from 'node:net';

/**
 * A visitor's whole connection handed to a function's process: the gateway read only its first
 * request head (gateway-front.ts), and from then on bytes go both ways untouched, so a redirect
 * costs the stack's Node process no HTTP parsing, header lists or proxying per request. The
 * function's process takes relayed connections on a port of their own, where a preloaded shim
 * (relay-shim.js) does per request what the gateway's in-process path does (the function's path,
 * the client's address, CORS): one line added to the first head tells it the visitor's socket
 * address, with the stack's secret so that a visitor cannot write that line himself.
 */

export const RELAY_HEADER = 'x-shortlane-relay';

/**
 * A relayed connection left idle this long (no byte either way) is closed, as the gateway's
 * kept-alive ones are; long enough for any answer a function takes to compute.
 */
const IDLE_TIMEOUT_MS = 120_000;

/**
 * Connects to the relay port `port`, sends `head` (the first request, as far as it was read) with
 * the announcement after its request line, then pipes the rest. Resolves false, having sent and
 * read nothing, when the port refuses the connection: the caller serves the visitor itself.
 */
export function relayConnection(
  port: number,
  client: net.Socket,
  head: Buffer,
  secret: string,
): Promise<boolean> {
  const lineEnd = head.indexOf('\r\n');
  const peer = client.remoteAddress;
  if (lineEnd < 0 || peer === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const upstream = net.connect({ port, host: '127.0.0.1', noDelay: true });
    const refused = () => {
      upstream.destroy();
      resolve(false);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.removeListener('error', refused);
      upstream.write(
        Buffer.concat([
          head.subarray(0, lineEnd + 2),
          Buffer.from(`${RELAY_HEADER}: ${secret} ${peer}\r\n`, 'latin1'),
          head.subarray(lineEnd + 2),
        ]),
      );
      // Back-pressure both ways; a visitor's end of sending is passed on.
      client.pipe(upstream);
      upstream.pipe(client);
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      client.once('error', cut).once('close', cut).setTimeout(IDLE_TIMEOUT_MS, cut);
      // Closed after its end (a `Connection: close` answer), the visitor still gets what is
      // written: pipe ends the visitor's side once it is flushed. Otherwise it was cut.
      upstream.once('error', cut).once('close', () => {
        if (!upstream.readableEnded) cut();
      });
      client.resume();
      resolve(true);
    });
  });
}
