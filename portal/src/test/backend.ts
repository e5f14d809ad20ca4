/**
 * A scripted server for component tests: the portal's real supabase-js client (and with it the
 * global response handler) talks to it through `fetch`. Each test says what the server answers;
 * a request nobody scripted is answered 501 and recorded in `unexpected`, so a test can see it.
 * The real server is covered by the e2e suite against the local stack.
 */

export type Responder = (request: Request, url: URL) => Response | Promise<Response>;

interface Route {
  method: string;
  path: string | RegExp;
  respond: Responder;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(body === undefined ? null : JSON.stringify(body), { ...init, headers });
}

/** A PostgREST-style error body: `{code, message, details, hint}`. */
export function postgrestError(
  status: number,
  fields: { code?: string; message: string; details?: string | null; hint?: string | null },
): Response {
  return json(
    {
      code: fields.code ?? `PT${status}`,
      message: fields.message,
      details: fields.details ?? null,
      hint: fields.hint ?? null,
    },
    { status },
  );
}

/**
 * Answers a PostgREST read of `rows` as PostgREST would for what supabase-js asked: an object
 * for `.single()`, no body and a Content-Range count for `head: true`, an array otherwise.
 */
export function tableRows(rows: readonly unknown[]): Responder {
  return (request) => {
    const range = `0-${Math.max(rows.length - 1, 0)}/${rows.length}`;
    if (request.method === 'HEAD') {
      return new Response(null, { status: 200, headers: { 'content-range': range } });
    }
    if (request.headers.get('accept')?.includes('vnd.pgrst.object')) {
      if (rows.length !== 1) {
        return postgrestError(406, {
          code: 'PGRST116',
          message: 'JSON object requested, multiple (or no) rows returned',
        });
      }
      return json(rows[0]);
    }
    return json(rows, { headers: { 'content-range': range } });
  };
}

export class TestBackend {
  readonly requests: Request[] = [];
  readonly unexpected: string[] = [];
  private readonly routes: Route[] = [];

  /** Scripts an answer; a later script for the same request wins. */
  on(method: string, path: string | RegExp, respond: Responder): this {
    this.routes.unshift({ method: method.toUpperCase(), path, respond });
    return this;
  }

  /** Scripts a PostgREST table read (`GET` and `HEAD /rest/v1/<table>`). */
  table(name: string, rows: readonly unknown[] | (() => readonly unknown[])): this {
    const respond: Responder = (request, url) =>
      tableRows(typeof rows === 'function' ? rows() : rows)(request, url);
    this.on('GET', `/rest/v1/${name}`, respond);
    return this.on('HEAD', `/rest/v1/${name}`, respond);
  }

  /** The requests made to a path, in order. */
  requestsTo(method: string, path: string): Request[] {
    return this.requests.filter(
      (request) => request.method === method && new URL(request.url).pathname === path,
    );
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    this.requests.push(request.clone());
    const url = new URL(request.url);
    const route = this.routes.find(
      (candidate) =>
        candidate.method === request.method &&
        (typeof candidate.path === 'string'
          ? candidate.path === url.pathname
          : candidate.path.test(url.pathname)),
    );
    if (route) return route.respond(request, url);
    this.unexpected.push(`${request.method} ${url.pathname}${url.search}`);
    return json(
      { message: `No answer scripted for ${request.method} ${url.pathname}` },
      { status: 501 },
    );
  };
}
