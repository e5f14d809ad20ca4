import {
  resolve,
  type JsonSchema,
  type OpenApiDocument,
  type OperationView,
} from './openApiView.ts';

/**
 * "Try it" on the reference page, as pure functions: where the document's server is, what a
 * request to an operation looks like from the values typed in, and a starting body.
 */

/**
 * The API's base URL. The document names its server relative to where it is served
 * (`/functions/v1/api`), which is this project's gateway: the one the portal talks to.
 */
export function serverUrlOf(document: OpenApiDocument, supabaseUrl: string): string {
  const server = document.servers?.[0]?.url ?? '';
  return new URL(server, supabaseUrl.endsWith('/') ? supabaseUrl : `${supabaseUrl}/`)
    .toString()
    .replace(/\/$/, '');
}

export interface TryItInput {
  token: string;
  /** Parameter values by name, as typed; empty ones are left out. */
  values: Readonly<Record<string, string>>;
  /** The JSON body as typed, for operations that take one. */
  body: string | null;
}

export type BuiltRequest =
  { ok: true; url: string; init: RequestInit } | { ok: false; problem: string };

/** The request an operation makes from the typed values, or what is missing first. */
export function buildRequest(
  view: OperationView,
  serverUrl: string,
  input: TryItInput,
): BuiltRequest {
  const token = input.token.trim();
  if (token === '') return { ok: false, problem: 'Enter your API token first.' };
  let path = view.path;
  const query = new URLSearchParams();
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  for (const parameter of view.operation.parameters ?? []) {
    const value = (input.values[parameter.name] ?? '').trim();
    if (value === '') {
      if (parameter.required) return { ok: false, problem: `${parameter.name} is required.` };
      continue;
    }
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === 'query') query.set(parameter.name, value);
    else if (parameter.in === 'header') headers.set(parameter.name, value);
  }
  const init: RequestInit = { method: view.method, headers };
  if (input.body !== null && input.body.trim() !== '') {
    try {
      JSON.parse(input.body);
    } catch {
      return { ok: false, problem: 'The body is not valid JSON.' };
    }
    headers.set('Content-Type', 'application/json');
    init.body = input.body;
  }
  const search = query.toString();
  return { ok: true, url: `${serverUrl}${path}${search ? `?${search}` : ''}`, init };
}

function placeholder(document: OpenApiDocument, schema: JsonSchema): unknown {
  const resolved = resolve(document, schema);
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum?.length) return resolved.enum[0];
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if (types.includes('object')) return exampleBody(document, resolved);
  if (types.includes('array')) return [];
  if (types.includes('integer') || types.includes('number')) return resolved.minimum ?? 0;
  if (types.includes('boolean')) return false;
  return '';
}

/** A body with the schema's required fields, for the user to fill in. */
export function exampleBody(
  document: OpenApiDocument,
  schema: JsonSchema,
): Record<string, unknown> {
  const resolved = resolve(document, schema);
  return Object.fromEntries(
    (resolved.required ?? []).map((name) => [
      name,
      placeholder(document, resolved.properties?.[name] ?? {}),
    ]),
  );
}

/** The answer as the panel shows it: status, the rate-limit headers, and the body as text. */
export interface TryItAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

const SHOWN_HEADERS = [
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
];

export async function readAnswer(response: Response): Promise<TryItAnswer> {
  const type = response.headers.get('content-type') ?? '';
  let body: string;
  if (/json/.test(type)) {
    const text = await response.text();
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      body = text;
    }
  } else if (/^text\/|svg/.test(type)) {
    body = await response.text();
  } else {
    const size = (await response.arrayBuffer()).byteLength;
    body = size === 0 ? '' : `${size} bytes of ${type || 'data'}`;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: SHOWN_HEADERS.flatMap((name) => {
      const value = response.headers.get(name);
      return value === null ? [] : [[name, value] as [string, string]];
    }),
    body,
  };
}
