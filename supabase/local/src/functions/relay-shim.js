/* global Deno */
// Preloaded (deno run --preload) into the function processes the gateway relays connections to
// (functions/relay.ts): the local stack's stand-in for what Supabase's edge runtime does in front
// of a function, on a second loopback port that only the gateway's relay connects to. Function
// code stays as it runs on Supabase; this file is never deployed.
//
// The gateway's relay hands over whole connections (bytes both ways) after reading only the
// first request head, into which it put one line, `x-shortlane-relay: <secret> <peer>`: the
// visitor's socket address. Here, per upstream connection (its source port on loopback), that
// peer is remembered, and every request of the connection is given what the gateway's in-process
// path gives it: the path behind the function's name (`/r/abc`, as on Supabase), X-Forwarded-For
// and X-Real-IP set to the client the gateway's rule names (client-address.ts, the same trusted
// proxies), and the gateway's CORS headers on the answer. The announcement line is removed; one
// without the stack's secret is ignored. Every relayed connection announces itself on its first
// request, so a source port used again by a new connection is never read with an old peer.
//
// On SIGTERM/SIGINT the function's own listeners (the `r` function's click flush) run only once
// the relay port has shut down gracefully: requests in flight on relayed connections are
// answered, kept-alive connections are closed, and no request reaches the function afterwards.
import { clientResolver, parseTrustedProxies } from '../client-address.ts';

const RELAY_HEADER = 'x-shortlane-relay';
/** How long a stop waits for relayed requests in flight before the function's listeners run. */
const SHUTDOWN_GRACE_MS = 2_000;

const settings = JSON.parse(Deno.env.get('SHORTLANE_RELAY') ?? 'null');
// The function never sees the relay's settings (its secret least of all).
Deno.env.delete('SHORTLANE_RELAY');

if (settings) {
  const { port, secret, trustedProxies, prefix, responseHeaders } = settings;
  const announcement = `${secret} `;
  const resolveClient = clientResolver(parseTrustedProxies(trustedProxies));
  const responseHeaderList = Object.entries(responseHeaders);
  /** Source port of a relayed connection -> the visitor's socket address it announced. */
  const peers = new Map();

  const relayed = (handler) => async (request, info) => {
    const { hostname, port: sourcePort } = info.remoteAddr;
    const announced = request.headers.get(RELAY_HEADER);
    if (announced !== null && announced.startsWith(announcement)) {
      // A second header line (a visitor's own) would follow the relay's after a comma.
      const comma = announced.indexOf(',', announcement.length);
      peers.set(sourcePort, announced.slice(announcement.length, comma < 0 ? undefined : comma));
    }
    const peer = peers.get(sourcePort) ?? hostname;
    const client = resolveClient(peer, request.headers.get('x-forwarded-for'));
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    // The request as the function is handed it, without building another Request (which costs
    // the relay path most of what it saves): a served request's headers are immutable, so a
    // copy stands in for them, and its URL gets the function's name in front of the path.
    const headers = new Headers(request.headers);
    if (announced !== null) headers.delete(RELAY_HEADER);
    headers.set('x-forwarded-for', client);
    headers.set('x-real-ip', client);
    Object.defineProperties(request, {
      url: {
        value:
          pathStart < 0
            ? `${url}${prefix}`
            : `${url.slice(0, pathStart)}${prefix}${url.slice(pathStart)}`,
      },
      headers: { value: headers },
    });
    let response = await handler(request, info);
    try {
      for (const [name, value] of responseHeaderList) response.headers.set(name, value);
    } catch {
      // An immutable answer (Response.redirect, a fetch's): the same answer, headers copied.
      response = new Response(response.body, response);
      for (const [name, value] of responseHeaderList) response.headers.set(name, value);
    }
    return response;
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
      relayServer = serve({ hostname: '127.0.0.1', port, onListen: () => {} }, relayed(handler));
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
