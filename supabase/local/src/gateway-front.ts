import type http from 'node:http';
import net from 'node:net';

/**
 * The socket in front of the gateway's HTTP server: it reads the first request head of each new
 * connection, and a connection whose first request is for a short domain is relayed whole to the
 * `r` function's process (functions/relay.ts), as a visitor's browser keeps a connection per
 * host; every other connection is handed to the gateway's HTTP server unchanged (REST, Auth,
 * Storage, functions, and short-domain requests on a connection that began with another host).
 * Short links thus cost the stack's Node process a few byte scans per connection, not an HTTP
 * proxy hop per request. The other connections go to the REST relay when there is one, which
 * relays REST requests at the byte level too and hands a connection to the HTTP server at its
 * first request for anything else.
 */

export interface FrontOptions {
  isShortDomain: (host: string) => boolean;
  /**
   * Relays the connection (its first head, and whatever followed it, already read) to the short
   * domains' function; false when that cannot be done and the gateway is to serve it.
   */
  relay: (client: net.Socket, head: Buffer, host: string) => Promise<boolean>;
  /**
   * Takes a connection that is not a short domain's (its first head, and whatever followed it,
   * already read): the byte-level REST relay (rest-relay.ts), which hands it to the gateway's
   * HTTP server with `toGateway` as soon as a request is not one it relays.
   */
  rest?: (
    client: net.Socket,
    read: Buffer,
    toGateway: (client: net.Socket, unread: Buffer) => void,
  ) => void;
  /** Longest first head read before the gateway takes over (its 431 answers longer ones). */
  headLimit?: number;
  /** Longest wait for the first head before the gateway takes over (with its own timeouts). */
  headTimeoutMs?: number;
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** As Node's default --max-http-header-size, so a head too long for it is never relayed. */
const HEAD_LIMIT = 16 * 1024;
const HEAD_TIMEOUT_MS = 5_000;
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]$/;

/**
 * The Host of a complete request head (`head` up to its blank line), lower-cased, without port
 * or trailing dot; undefined when the head is not a plain HTTP/1 request with exactly one Host.
 */
export function hostOfHead(head: string): string | undefined {
  const lines = head.split('\r\n');
  if (!REQUEST_LINE.test(lines[0] ?? '')) return undefined;
  let host: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length < 5 || line.slice(0, 5).toLowerCase() !== 'host:') continue;
    if (host !== undefined) return undefined;
    host = line.slice(5).trim().toLowerCase();
  }
  return host?.replace(/:\d+$/, '').replace(/\.$/, '');
}

/** The front's server; `server` never listens itself (the front does, on the gateway's port). */
export function createGatewayFront(server: http.Server, options: FrontOptions): net.Server {
  const headLimit = options.headLimit ?? HEAD_LIMIT;
  const headTimeoutMs = options.headTimeoutMs ?? HEAD_TIMEOUT_MS;
  const toGateway = (socket: net.Socket, read: Buffer) => {
    if (read.length > 0) socket.unshift(read);
    server.emit('connection', socket);
    // Paused by the front: the HTTP server reads the bytes put back first, then the socket.
    socket.resume();
  };

  // As http.Server sets up its sockets: half-open allowed, no Nagle delay.
  const front = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    let read: Buffer = Buffer.alloc(0);
    let decided = false;
    const decide = () => {
      decided = true;
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('end', onEarlyEnd);
      socket.pause();
    };
    const onEarlyEnd = () => {
      // Gone before its first request was complete: nothing to answer.
      if (!decided) decide();
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      read = read.length === 0 ? chunk : Buffer.concat([read, chunk]);
      const end = read.indexOf(HEAD_END);
      if (end < 0) {
        if (read.length > headLimit) {
          decide();
          toGateway(socket, read);
        }
        return;
      }
      decide();
      const host = end > headLimit ? undefined : hostOfHead(read.toString('latin1', 0, end));
      if (host === undefined || !options.isShortDomain(host)) {
        if (options.rest) return options.rest(socket, read, toGateway);
        return toGateway(socket, read);
      }
      const head = read;
      options.relay(socket, head, host).then(
        (relayed) => {
          if (!relayed && !socket.destroyed) toGateway(socket, head);
        },
        () => socket.destroy(),
      );
    };
    const timer = setTimeout(() => {
      if (decided) return;
      decide();
      toGateway(socket, read);
    }, headTimeoutMs);
    socket.on('data', onData);
    socket.on('end', onEarlyEnd);
    // For good: while the relay connects, no one else listens (those who take over add theirs).
    socket.on('error', () => socket.destroy());
  });
  // The HTTP server tracks its connections (idle ones closed by a drain, header and request
  // timeouts) from its 'listening' on: the front's listening stands for it.
  front.on('listening', () => server.emit('listening'));
  return front;
}
