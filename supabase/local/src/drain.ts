import type http from 'node:http';

/**
 * Closes an HTTP server without cutting the requests it is answering: it stops accepting
 * connections, lets the requests in flight finish until `deadline` (epoch ms), and ends every
 * connection once none is busy (or the deadline has passed, when the remaining ones are cut).
 */
export type Drain = (deadline: number) => Promise<void>;

/**
 * Counts `server`'s requests from now on and returns its drain. Node's `server.close()` alone
 * keeps answering requests that come on open keep-alive connections, and `closeAllConnections()`
 * cuts the requests in flight: while draining, every response says `Connection: close`, so each
 * busy connection ends after its answer and no client keeps a drain going.
 */
export function drainable(server: http.Server): Drain {
  const active = new Set<http.ServerResponse>();
  let draining = false;
  let onIdle: (() => void) | undefined;
  server.prependListener('request', (_request, response) => {
    if (draining) response.shouldKeepAlive = false;
    active.add(response);
    response.once('close', () => {
      active.delete(response);
      if (active.size === 0) onIdle?.();
    });
  });
  return async (deadline) => {
    draining = true;
    for (const response of active) if (!response.headersSent) response.shouldKeepAlive = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (active.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        onIdle = resolve;
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      clearTimeout(timer);
    }
    server.closeAllConnections();
    await closed;
  };
}
