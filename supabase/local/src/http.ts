import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * The stack's own services (auth, storage, mail) are written against the web-standard
 * Request/Response so they read like any fetch handler and are tested without a socket.
 */
export type WebHandler = (request: Request) => Promise<Response>;

/**
 * The CORS fields of an answer to an actual request: all a browser reads from one (who may read
 * it, and which of its headers a script sees). As Kong's cors plugin answers on Supabase, whose
 * answers carry the allowed methods, headers and max-age only on preflights.
 */
export const CORS_ANSWER_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'content-range, content-location, content-type, x-total-count, link, preference-applied, location, etag, x-supabase-api-version',
};

/**
 * Every CORS field: a preflight's answer, and a function's answer that has none of its own (a
 * function may answer its own preflights, so its answers keep the whole set).
 */
export const CORS_HEADERS: Record<string, string> = {
  ...CORS_ANSWER_HEADERS,
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, range-unit, x-upsert, cache-control, x-supabase-api-version, x-region, x-ajax-request, x-fingerprint, accept',
  'access-control-max-age': '86400',
};

/**
 * How much of a request body a handler left unread (an upload refused for its size or type)
 * is still read and thrown away so that the kept-alive connection can carry the client's next
 * request. A larger rest is not waited for: the answer says `Connection: close` instead, and
 * the connection ends after it, as nginx and Storage end one whose body they refused to read.
 */
export const UNREAD_BODY_LIMIT = 16 * 1024 * 1024;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A request as a web Request, plus what the server must do with the body the handler left. */
export interface IncomingWebRequest {
  request: Request;
  /**
   * At most how many bytes of the body are still on the connection: 0 once the server has
   * received it all (read by the handler or not), undefined when the length is unknown.
   */
  unreadBytes(): number | undefined;
  /** Reads the rest of the body and throws it away, at most `limit` bytes; true if it ended. */
  discardRest(limit?: number): Promise<boolean>;
}

function declaredLength(req: IncomingMessage): number | undefined {
  const value = Number(req.headers['content-length']);
  return req.headers['content-length'] !== undefined && Number.isSafeInteger(value) && value >= 0
    ? value
    : undefined;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  return headers;
}

/**
 * The handler reads the body through a stream of its own, never the socket's: whatever it
 * leaves (or gives up on, by cancelling) stays readable here, so the server can still consume
 * it — cancelling the socket's stream would destroy the connection mid-request.
 */
export function incomingWebRequest(req: IncomingMessage, origin: string): IncomingWebRequest {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', origin);
  if (method === 'GET' || method === 'HEAD') {
    return {
      request: new Request(url, { method, headers: requestHeaders(req) }),
      unreadBytes: () => 0,
      discardRest: async () => true,
    };
  }
  const source = (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader();
  const declared = declaredLength(req);
  let received = 0;
  let ended = false;
  const read = async (): Promise<Uint8Array | undefined> => {
    if (ended) return undefined;
    const { done, value } = await source.read();
    if (done) {
      ended = true;
      return undefined;
    }
    received += value.byteLength;
    return value;
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await read();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
      cancel() {},
    },
    // Nothing is read ahead of the handler: what it never asks for is discarded unbuffered.
    { highWaterMark: 0 },
  );
  return {
    request: new Request(url, {
      method,
      headers: requestHeaders(req),
      body,
      // Node's fetch needs this to accept a streamed request body.
      duplex: 'half',
    } as RequestInit),
    unreadBytes: () =>
      ended || req.complete ? 0 : declared === undefined ? undefined : declared - received,
    async discardRest(limit = Infinity) {
      let discarded = 0;
      try {
        for (let chunk = await read(); chunk; chunk = await read()) {
          discarded += chunk.byteLength;
          if (discarded > limit) return false;
        }
        return true;
      } catch {
        return false; // the client went away
      }
    },
  };
}

export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  Object.assign(headers, extraHeaders);
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/**
 * Answers one request with a web handler and leaves the connection fit for the next one. A
 * handler may answer before reading the whole body (an upload refused early): unread bytes
 * left on a kept-alive socket would be parsed as the client's next request, or stall it. So
 * a rest of up to `unreadBodyLimit` bytes is read and dropped while the answer goes out; a
 * larger or unknown rest gets `Connection: close`, and the socket closes after the answer (its
 * remaining bytes are still consumed meanwhile, so the client is not reset before it reads it).
 */
export async function serveWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  handler: WebHandler,
  options: { unreadBodyLimit?: number } = {},
): Promise<void> {
  const limit = options.unreadBodyLimit ?? UNREAD_BODY_LIMIT;
  const incoming = incomingWebRequest(req, origin);
  const response = await handler(incoming.request);
  const unread = incoming.unreadBytes();
  if (unread === 0) return sendWebResponse(res, response);
  const keepAlive = unread !== undefined && unread <= limit;
  const discarded = incoming.discardRest(keepAlive ? limit : Infinity);
  await sendWebResponse(res, response, keepAlive ? {} : { connection: 'close' });
  // The client went away mid-body: nothing more can come over this connection.
  if (keepAlive && !(await discarded)) req.socket.destroy();
}
