/* global Deno */
// Preloaded (deno run --preload) into the function processes the gateway relays connections to
// (functions/relay.ts): the local stack's stand-in for what Supabase's edge runtime does in front
// of a function, on a Unix socket that only the gateway's relay connects to. Function
// code stays as it runs on Supabase; this file is never deployed.
//
// The gateway's relay hands over whole connections, on a Unix socket, after reading only the
// first request head, and puts one line into every request head that follows,
// `x-shortlane-relay: <secret> <peer>`: the visitor's socket address (relay-framing.ts). Every
// request is given what the gateway's in-process path gives it: the path behind the function's
// name (`/r/abc`, as on Supabase), X-Forwarded-For and X-Real-IP set to the client the gateway's
// rule names (client-address.ts, the same trusted proxies), and the gateway's CORS headers on the
// answer. The announcement line is removed; a request without one carrying the stack's secret
// (none can come but from a stream the relay could not frame) is refused.
//
// On SIGTERM/SIGINT the function's own listeners (the `r` function's click flush) run only once
// the relay socket has shut down gracefully: requests in flight on relayed connections are
// answered, kept-alive connections are closed, and no request reaches the function afterwards.
import { clientResolver, parseTrustedProxies } from '../client-address.ts';

const RELAY_HEADER = 'x-shortlane-relay';
/** How long a stop waits for relayed requests in flight before the function's listeners run. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * Deno's own fields behind a Headers object (symbol-keyed, ext/fetch/20_headers.js), when this
 * Deno has them and they behave as this file expects: the list, the guard, and the two hooks
 * that let a served request's headers be read one name at a time and listed only when asked. A
 * relayed request's headers are then a lazy view over the served ones, and the CORS headers are
 * appended to an answer's list as they are: the public methods validate every name and value
 * (the CORS values are long) and a copy lists every header, which together cost the relay path
 * a tenth of its time. Checked at start-up; any other Deno gets the public methods.
 */
function headerInternals() {
  const probe = new Headers();
  const named = (description) =>
    Object.getOwnPropertySymbols(probe).find((symbol) => symbol.description === description);
  const internals = {
    list: named('header list'),
    listGetter: named('header list getter'),
    getter: named('header get'),
    guard: named('guard'),
  };
  if (Object.values(internals).includes(undefined)) return undefined;
  try {
    probe[internals.list] = null;
    probe[internals.listGetter] = () => [
      ['x-a', '1'],
      ['x-b', '2'],
    ];
    probe[internals.getter] = (name) => (name.toLowerCase() === 'x-a' ? '1' : null);
    if (probe.get('X-A') !== '1' || probe.get('x-b') !== null || !probe.has('x-b'))
      return undefined;
    if (JSON.stringify([...probe]) !== '[["x-a","1"],["x-b","2"]]') return undefined;
    const { headers } = new Response(null, { headers: { 'x-a': '1' } });
    const list = headers[internals.list];
    if (!Array.isArray(list) || headers[internals.guard] !== 'response') return undefined;
    list.push(['x-b', '2']);
    if (headers.get('x-b') !== '2') return undefined;
  } catch {
    return undefined;
  }
  return internals;
}

const settings = JSON.parse(Deno.env.get('SHORTLANE_RELAY') ?? 'null');
// The function never sees the relay's settings (its secret least of all).
Deno.env.delete('SHORTLANE_RELAY');

if (settings) {
  const { path, secret, trustedProxies, prefix, responseHeaders } = settings;
  const announcement = `${secret} `;
  const resolveClient = clientResolver(parseTrustedProxies(trustedProxies));
  const responseHeaderList = Object.entries(responseHeaders).map(([name, value]) => [
    name.toLowerCase(),
    value,
  ]);
  const internals = headerInternals();
  const REPLACED = new Set([RELAY_HEADER, 'x-forwarded-for', 'x-real-ip']);

  /**
   * A served request's header `name` (valid, as Headers.get checks it), read with Deno's own
   * one-name reader while the headers have one: no second validation of the name.
   */
  const readHeader = (headers, name) => {
    const read = internals && headers[internals.getter];
    return read ? read(name) : headers.get(name);
  };

  /** The request's headers without the relay's line, the client named in both address headers. */
  const requestHeaders = (original, client) => {
    if (internals) {
      const headers = new Headers();
      headers[internals.list] = null;
      headers[internals.getter] = (name) => {
        const lower = name.toLowerCase();
        if (lower === 'x-forwarded-for' || lower === 'x-real-ip') return client;
        return lower === RELAY_HEADER ? null : readHeader(original, name);
      };
      headers[internals.listGetter] = () => {
        const list = [];
        for (const entry of original) if (!REPLACED.has(entry[0])) list.push(entry);
        list.push(['x-forwarded-for', client], ['x-real-ip', client]);
        return list;
      };
      return headers;
    }
    const headers = new Headers(original);
    headers.delete(RELAY_HEADER);
    headers.set('x-forwarded-for', client);
    headers.set('x-real-ip', client);
    return headers;
  };

  /** The gateway's CORS headers set on `response`, a copy of it if its headers are immutable. */
  const withResponseHeaders = (response) => {
    const headers = response.headers;
    const entries = internals && headers[internals.list];
    if (Array.isArray(entries) && headers[internals.guard] === 'response') {
      // As set() would: the function's own value of one of these names gives way.
      if (entries.some(([name]) => name.toLowerCase().startsWith('access-control-'))) {
        for (const [name, value] of responseHeaderList) headers.set(name, value);
      } else {
        for (const entry of responseHeaderList) entries.push([entry[0], entry[1]]);
      }
      return response;
    }
    try {
      for (const [name, value] of responseHeaderList) headers.set(name, value);
      return response;
    } catch {
      // An immutable answer (Response.redirect, a fetch's): the same answer, headers copied.
      const copy = new Response(response.body, response);
      for (const [name, value] of responseHeaderList) copy.headers.set(name, value);
      return copy;
    }
  };

  // Not async: a handler that answers at once (the `r` function's cached links) is answered at
  // once too, without a promise per request.
  const relayed = (handler) => (request, info) => {
    const announced = readHeader(request.headers, RELAY_HEADER);
    if (announced === null || !announced.startsWith(announcement))
      return new Response('Bad Request', { status: 400, headers: { Connection: 'close' } });
    // A second header line (a visitor's own) follows the relay's after a comma.
    const comma = announced.indexOf(',', announcement.length);
    const peer = announced.slice(announcement.length, comma < 0 ? undefined : comma);
    const client = resolveClient(peer, readHeader(request.headers, 'x-forwarded-for'));
    // Served on a Unix socket, the URL's scheme is `http+unix`: the visitor's was http.
    const hostStart = request.url.indexOf('//') + 2;
    const url = `http://${request.url.slice(hostStart)}`;
    const pathStart = url.indexOf('/', 7);
    // The request as the function is handed it, without building another Request (which costs
    // the relay path most of what it saves): a served request's headers are immutable, so a
    // view over them with the client's address stands in, and its URL gets the function's name
    // in front of the path.
    Object.defineProperties(request, {
      url: {
        value:
          pathStart < 0
            ? `${url}${prefix}`
            : `${url.slice(0, pathStart)}${prefix}${url.slice(pathStart)}`,
      },
      headers: { value: requestHeaders(request.headers, client) },
    });
    const answer = handler(request, info);
    return answer instanceof Response
      ? withResponseHeaders(answer)
      : Promise.resolve(answer).then(withResponseHeaders);
  };

  let relayServer;
  let shutdown;
  const drained = () =>
    (shutdown ??= Promise.race([
      relayServer ? relayServer.shutdown() : Promise.resolve(),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS)),
    ]).catch(() => undefined));

  const serve = Deno.serve;
  Deno.serve = function (...args) {
    const server = serve.apply(Deno, args);
    if (relayServer) return server;
    const handler =
      typeof args[0] === 'function'
        ? args[0]
        : typeof args[1] === 'function'
          ? args[1]
          : args[0]?.handler;
    // DENO_SERVE_ADDRESS would put this second server on the function's own address.
    const serveAddress = Deno.env.get('DENO_SERVE_ADDRESS');
    Deno.env.delete('DENO_SERVE_ADDRESS');
    try {
      relayServer = serve({ path, onListen: () => {} }, relayed(handler));
    } finally {
      if (serveAddress !== undefined) Deno.env.set('DENO_SERVE_ADDRESS', serveAddress);
    }
    return server;
  };

  const STOP_SIGNALS = new Set(['SIGTERM', 'SIGINT']);
  /** signal -> the function's listener -> what was registered in its place. */
  const wrapped = new Map([...STOP_SIGNALS].map((signal) => [signal, new Map()]));
  const addSignalListener = Deno.addSignalListener;
  const removeSignalListener = Deno.removeSignalListener;
  Deno.addSignalListener = (signal, listener) => {
    const ours = wrapped.get(signal);
    if (!ours) return addSignalListener(signal, listener);
    const late = () => void drained().then(() => listener());
    ours.set(listener, late);
    return addSignalListener(signal, late);
  };
  Deno.removeSignalListener = (signal, listener) => {
    const late = wrapped.get(signal)?.get(listener);
    wrapped.get(signal)?.delete(listener);
    return removeSignalListener(signal, late ?? listener);
  };
}
