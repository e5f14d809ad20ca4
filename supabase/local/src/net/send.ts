import { isAllowedHost, refusedHostMessage } from './hosts.ts';

/** A row of net.http_request_queue, as the worker takes it. */
export interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, unknown>;
  body: Buffer | null;
  timeout_milliseconds: number;
}

/** A row for net._http_response (its `created` is the database's). */
export interface ResponseRow {
  id: string;
  status_code: number | null;
  content_type: string | null;
  headers: Record<string, string> | null;
  content: string | null;
  timed_out: boolean | null;
  error_msg: string | null;
}

const failure = (id: string, error_msg: string, timed_out = false): ResponseRow => ({
  id,
  status_code: null,
  content_type: null,
  headers: null,
  content: null,
  timed_out,
  error_msg,
});

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch hides the socket's reason (refused, reset, unknown host) in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/**
 * Sends one request and describes its outcome as pg_net stores it: the answer (any status), or
 * an error_msg when none came (refused host, connection error, timeout). Redirects are not
 * followed (a 3xx is an answer), so that an allowed host cannot send the worker elsewhere.
 */
export async function sendRequest(
  request: QueuedRequest,
  allowedHosts: readonly string[],
): Promise<ResponseRow> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure(request.id, `Invalid URL: ${request.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return failure(request.id, `Unsupported protocol ${url.protocol} in ${request.url}`);
  }
  if (!isAllowedHost(url.hostname, allowedHosts)) {
    return failure(request.id, refusedHostMessage(url.hostname));
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    headers.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const timeout = request.timeout_milliseconds;
  try {
    const response = await fetch(url, {
      method: request.method.toUpperCase(),
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeout),
    });
    const content = await response.text();
    return {
      id: request.id,
      status_code: response.status,
      content_type: response.headers.get('content-type'),
      headers: Object.fromEntries(response.headers),
      content,
      timed_out: false,
      error_msg: null,
    };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return failure(request.id, `Timeout of ${timeout} ms reached`, true);
    }
    return failure(request.id, describe(error));
  }
}
