import http from 'node:http';
import { Agent, type Dispatcher } from 'undici';

/**
 * One HTTP hop to a loopback service (PostgREST, a function's Deno process), as cheap as Node
 * makes it: headers travel as flat raw [name, value, …] lists both ways (building and
 * re-validating header objects was a measurable share of the CPU per request) and connections
 * are kept alive. A request without a body (a redirect, a REST read) goes through undici's
 * dispatcher, which costs about a quarter less CPU than http.request and its streams; one with
 * a body is streamed with http.request, whose handling of an answer that comes before the whole
 * body is known (see endAfterBody).
 */

const nodeAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const dispatcher = new Agent({ connections: 256, pipelining: 1 });

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy drops them,
 * and any the Connection header names. Transfer-Encoding stays: Node decodes the body and frames
 * it again on the next leg, and the header tells that leg to chunk.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);

/** A field only the next hop reads (`name` lower-cased): a proxy never passes it on. */
export const isHopByHop = (name: string) => HOP_BY_HOP.has(name);

/** The names the message's Connection header lists, lower-cased (usually none). */
function connectionOptions(rawHeaders: readonly string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'connection') continue;
    for (const token of rawHeaders[i + 1]!.split(',')) {
      const name = token.trim().toLowerCase();
      if (name && name !== 'close' && name !== 'keep-alive') (named ??= new Set()).add(name);
    }
  }
  return named;
}

/**
 * `rawHeaders` without hop-by-hop headers and without those `drop` refuses (given the lower-cased
 * name and the value), followed by `append`.
 */
export function forwardHeaders(
  rawHeaders: readonly string[],
  drop?: (name: string, value: string) => boolean,
  append: readonly string[] = [],
): string[] {
  const named = connectionOptions(rawHeaders);
  const headers: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    if (HOP_BY_HOP.has(name) || named?.has(name) || drop?.(name, value)) continue;
    headers.push(rawHeaders[i]!, value);
  }
  for (const entry of append) headers.push(entry);
  return headers;
}

export interface Upstream {
  port: number;
  /** Path and query as the upstream is to receive them. */
  path: string;
  /** Flat raw list, hop-by-hop headers already dropped (forwardHeaders). */
  headers: readonly string[];
  /** The response headers to send, from the upstream's (hop-by-hop headers already dropped). */
  responseHeaders?: (rawHeaders: string[]) => string[];
  /** The upstream failed before answering: the caller answers for it (`res` is untouched). */
  onFailure: (error: Error) => void;
}

/** A body follows the headers (by its length or its chunked framing). */
function hasBody(req: http.IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined
    ? req.headers['content-length'] !== '0'
    : req.headers['transfer-encoding'] !== undefined;
}

/**
 * The upstream answered before taking the whole request body (it refused an upload without
 * reading it): the rest is read and thrown away, and the answer ends only once the client has
 * sent it all. Closing earlier would leave its bytes unread on the socket, and the reset that
 * follows can destroy the answer before the client reads it; waiting keeps the connection usable.
 */
function endAfterBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  if (req.complete) res.end();
  else req.once('end', () => res.end());
}

/** Sends `req` to the upstream and its answer to `res`. */
export function proxy(req: http.IncomingMessage, res: http.ServerResponse, to: Upstream): void {
  // undici refuses Expect (it has no 100-continue): such a request takes the streaming path.
  if (hasBody(req) || req.headers.expect !== undefined) streamed(req, res, to);
  else bodiless(req, res, to);
}

/** `http://127.0.0.1:<port>`, built once per port (undici keys its pools by it). */
const origins = new Map<number, string>();
const originOf = (port: number) => {
  let origin = origins.get(port);
  if (origin === undefined) origins.set(port, (origin = `http://127.0.0.1:${port}`));
  return origin;
};

function bodiless(req: http.IncomingMessage, res: http.ServerResponse, to: Upstream): void {
  let abort: ((error?: Error) => void) | undefined;
  let resume: (() => void) | undefined;
  let finished = false;
  let clientGone = false;
  const handler: Dispatcher.DispatchHandler = {
    onConnect(abortRequest) {
      abort = abortRequest;
    },
    onHeaders(status, rawHeaders, resumeUpstream) {
      resume = resumeUpstream;
      const names: string[] = [];
      for (const entry of rawHeaders) names.push(entry.toString('latin1'));
      const headers = forwardHeaders(names);
      res.writeHead(status, to.responseHeaders?.(headers) ?? headers);
      return true;
    },
    onData(chunk) {
      // Back-pressure: the upstream waits until the client took what it was sent. A listener
      // only then, not one per answer (most answers, a redirect, have no body at all).
      if (res.write(chunk)) return true;
      res.once('drain', () => resume?.());
      return false;
    },
    onComplete() {
      finished = true;
      res.end();
    },
    onError(error) {
      finished = true;
      // Our own abort, the client having gone: nothing failed upstream, nobody to answer.
      if (clientGone) return;
      if (res.headersSent) res.destroy();
      else to.onFailure(error);
    },
  };
  res.once('close', () => {
    // The client went away before its answer was complete: the upstream need not go on.
    if (!finished) {
      clientGone = true;
      abort?.();
    }
  });
  try {
    dispatcher.dispatch(
      {
        origin: originOf(to.port),
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        path: to.path,
        // The client's Host travels in the list: undici adds none of its own then.
        headers: to.headers as string[],
        body: null,
      },
      handler,
    );
  } catch (error) {
    // A request undici refuses to send (a header it does not allow): the upstream never saw it.
    handler.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

function streamed(req: http.IncomingMessage, res: http.ServerResponse, to: Upstream): void {
  const upstream = http.request({
    host: '127.0.0.1',
    port: to.port,
    method: req.method,
    path: to.path,
    // Node sends a list as given (it adds no Host); the client's Host travels in it.
    headers: to.headers as string[],
    agent: nodeAgent,
  });
  let answered = false;
  let clientGone = false;
  upstream.once('response', (answer) => {
    answered = true;
    const cut = !req.complete;
    if (cut) req.unpipe(upstream);
    const headers = forwardHeaders(answer.rawHeaders);
    res.writeHead(answer.statusCode ?? 502, to.responseHeaders?.(headers) ?? headers);
    answer.pipe(res, { end: !cut });
    answer.once('error', () => res.destroy());
    if (cut)
      answer.once('end', () => {
        // The request was cut short: the upstream connection cannot carry another one.
        upstream.destroy();
        endAfterBody(req, res);
      });
  });
  upstream.once('error', (error) => {
    // Once answered, a failure only means the upstream stopped reading the body it refused;
    // after the client went away, it is our own destroy.
    if (answered || clientGone) return;
    if (res.headersSent) res.destroy();
    else to.onFailure(error);
  });
  res.once('close', () => {
    // The client went away before its answer was complete: the upstream need not go on.
    if (!res.writableFinished) {
      clientGone = true;
      upstream.destroy();
    }
  });
  req.pipe(upstream);
}
