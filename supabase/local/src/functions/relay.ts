import net from 'node:net';
import { RequestFraming } from './relay-framing.ts';

/**
 * A visitor's whole connection handed to a function's process: the gateway read only its first
 * request head (gateway-front.ts), and from then on the function's answers go back untouched and
 * the visitor's requests go on with one line added to each head (relay-framing.ts), so a redirect
 * costs the stack's Node process no HTTP parsing, header lists or proxying per request. The
 * function's process takes relayed connections on a Unix socket of their own (a loopback TCP hop
 * costs both processes several times as much kernel time per write), where a preloaded shim
 * (relay-shim.js) does per request what the gateway's in-process path does (the function's path,
 * the client's address, CORS): the added line tells it the visitor's socket address, with the
 * stack's secret so that a visitor cannot write that line himself.
 */

export const RELAY_HEADER = 'x-shortlane-relay';

/**
 * A relayed connection left idle this long (no byte either way) is closed, as the gateway's
 * kept-alive ones are; long enough for any answer a function takes to compute.
 */
const IDLE_TIMEOUT_MS = 120_000;

/** Most bytes one read of a function's answers takes (a redirect's answer is under 1 KB). */
const ANSWER_READ_SIZE = 16 * 1024;

/** `from`'s data, transformed, written to `to`, pausing `from` while `to` is full. */
function forward(from: net.Socket, to: net.Socket, transform: (chunk: Buffer) => Buffer): void {
  const resume = () => from.resume();
  from.on('data', (chunk: Buffer) => {
    const bytes = transform(chunk);
    if (bytes.length > 0 && !to.write(bytes)) {
      from.pause();
      to.once('drain', resume);
    }
  });
}

/**
 * Connects to the relay socket `socketPath`, sends `head` (the first request, as far as it was
 * read) and what follows, each request head announced. Resolves false, having sent and read
 * nothing, when the socket refuses the connection: the caller serves the visitor itself.
 */
export function relayConnection(
  socketPath: string,
  client: net.Socket,
  head: Buffer,
  secret: string,
): Promise<boolean> {
  const peer = client.remoteAddress;
  if (head.indexOf('\r\n') < 0 || peer === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    let resumeUpstream = () => {};
    let answers = Buffer.allocUnsafeSlow(ANSWER_READ_SIZE);
    const upstream = net.connect({
      path: socketPath,
      // The answers' direction without a Readable's buffering and events: each read lands in
      // this connection's buffer and is written on from there.
      onread: {
        // Asked again after each read: the buffer for the next one.
        buffer: () => answers,
        callback: (length: number, buffer: Uint8Array) => {
          const written = client.write(buffer.subarray(0, length));
          // Bytes the kernel did not take at once are still referred to: read elsewhere next.
          if (client.writableLength > 0) answers = Buffer.allocUnsafeSlow(ANSWER_READ_SIZE);
          if (written) return true;
          client.once('drain', resumeUpstream);
          return false;
        },
      },
    });
    resumeUpstream = () => upstream.resume();
    const refused = () => {
      upstream.destroy();
      resolve(false);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.removeListener('error', refused);
      const framing = new RequestFraming(
        Buffer.from(`${RELAY_HEADER}: ${secret} ${peer}\r\n`, 'latin1'),
      );
      const first = framing.push(head);
      if (first.length > 0) upstream.write(first);
      // Back-pressure both ways.
      forward(client, upstream, (chunk) => framing.push(chunk));
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      // A visitor's end of sending is passed on (the front allows half-open connections).
      client.once('end', () => upstream.end());
      // Closed after its end (a `Connection: close` answer), the visitor still gets what is
      // written: its side is ended once that is flushed. Otherwise it was cut.
      upstream.once('end', () => client.end());
      client.once('error', cut).once('close', cut).setTimeout(IDLE_TIMEOUT_MS, cut);
      upstream.once('error', cut).once('close', () => {
        if (!upstream.readableEnded) cut();
      });
      client.resume();
      resolve(true);
    });
  });
}
