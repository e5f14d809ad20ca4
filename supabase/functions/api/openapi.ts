/**
 * The OpenAPI 3.1 description of the public API, generated from the zod schemas the function
 * validates with (schemas.ts) by zod's own JSON Schema output (z.toJSONSchema, draft 2020-12,
 * which OpenAPI 3.1 uses). The function serves it at /functions/v1/api/openapi.json;
 * `npm run gen:openapi` writes it to shared/src/api/openapi.json (checked by `npm run check`),
 * from which the typed client and the portal's reference page are made.
 *
 * OPERATIONS is the list of routes; a test checks it against the routes the app registers.
 * Imports only zod and the schemas, so Node (the generator script) loads it as Deno does.
 */
import { z } from 'zod';
import { ABILITIES, type Ability } from './abilities.ts';
import {
  analytics,
  analyticsQuery,
  bulkCreateBody,
  bulkResult,
  domain,
  domainList,
  errorBody,
  link,
  linkArchiveBody,
  linkCreateBody,
  linkListQuery,
  linkPage,
  linkUpdateBody,
  MAX_BULK_LINKS,
} from './schemas.ts';

type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Operation {
  method: Method;
  /** OpenAPI's template (`/v1/links/{id}`); Hono's is the same with `:id`. */
  path: string;
  operationId: string;
  summary: string;
  ability: Ability;
  query?: z.ZodObject;
  body?: string;
  /** The success status and its component (or a media type for non-JSON answers). */
  success: { status: number; schema?: string; mediaType?: string; description: string };
  /** Refusals the route can give beyond those of every route. */
  refusals?: number[];
  idempotent?: boolean;
}

const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  LinkCreate: linkCreateBody,
  LinkUpdate: linkUpdateBody,
  LinkArchive: linkArchiveBody,
  BulkCreate: bulkCreateBody,
};

const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  Link: link,
  LinkPage: linkPage,
  Domain: domain,
  DomainList: domainList,
  Analytics: analytics,
  BulkResult: bulkResult,
  Error: errorBody,
};

export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/v1/links',
    operationId: 'listLinks',
    summary: 'List links, newest first, a page at a time',
    ability: 'links:read',
    query: linkListQuery,
    success: { status: 200, schema: 'LinkPage', description: 'A page of links.' },
  },
  {
    method: 'post',
    path: '/v1/links',
    operationId: 'createLink',
    summary: 'Create a short link',
    ability: 'links:write',
    body: 'LinkCreate',
    success: { status: 201, schema: 'Link', description: 'The link created.' },
    refusals: [409, 413, 422],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/v1/links/bulk',
    operationId: 'bulkCreateLinks',
    summary: `Create up to ${MAX_BULK_LINKS} links at once (needs bulk and links:write)`,
    ability: 'bulk',
    body: 'BulkCreate',
    success: { status: 200, schema: 'BulkResult', description: 'Links created, rows refused.' },
    refusals: [409, 413, 422],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/v1/links/{id}',
    operationId: 'getLink',
    summary: 'Read a link',
    ability: 'links:read',
    success: { status: 200, schema: 'Link', description: 'The link.' },
    refusals: [404],
  },
  {
    method: 'patch',
    path: '/v1/links/{id}',
    operationId: 'updateLink',
    summary: 'Change a link’s destination, alias, tags, description or expiry',
    ability: 'links:write',
    body: 'LinkUpdate',
    success: { status: 200, schema: 'Link', description: 'The link changed.' },
    refusals: [404, 422],
  },
  {
    method: 'delete',
    path: '/v1/links/{id}',
    operationId: 'deleteLink',
    summary: 'Delete a link',
    ability: 'links:write',
    success: { status: 204, description: 'Deleted.' },
    refusals: [404],
  },
  {
    method: 'post',
    path: '/v1/links/{id}/archive',
    operationId: 'archiveLink',
    summary: 'Archive (or restore) a link',
    ability: 'links:write',
    body: 'LinkArchive',
    success: { status: 200, schema: 'Link', description: 'The link.' },
    refusals: [404, 422],
  },
  {
    method: 'get',
    path: '/v1/links/{id}/analytics',
    operationId: 'getLinkAnalytics',
    summary: 'A link’s clicks over a stats period',
    ability: 'analytics:read',
    query: analyticsQuery,
    success: { status: 200, schema: 'Analytics', description: 'The link’s analytics.' },
    refusals: [404, 422],
  },
  {
    method: 'get',
    path: '/v1/links/{id}/qr',
    operationId: 'getLinkQrCode',
    summary: 'A link’s QR code (SVG) of its short URL',
    ability: 'links:read',
    success: { status: 200, mediaType: 'image/svg+xml', description: 'The QR code.' },
    refusals: [404],
  },
  {
    method: 'get',
    path: '/v1/analytics',
    operationId: 'getAnalytics',
    summary: 'The account’s clicks over a stats period',
    ability: 'analytics:read',
    query: analyticsQuery,
    success: { status: 200, schema: 'Analytics', description: 'The account’s analytics.' },
    refusals: [422],
  },
  {
    method: 'get',
    path: '/v1/domains',
    operationId: 'listDomains',
    summary: "The account's short domains, each with whether it takes links now",
    ability: 'domains:read',
    success: { status: 200, schema: 'DomainList', description: 'Domains.' },
  },
];

/** The catalogue's statuses as this API uses them (app-shell 8). */
const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthenticated: no token, or an unknown, revoked or expired one.',
  402: 'Not enough credits for this operation (the plan’s max_api_credits), or a paid feature.',
  403: 'The token lacks the ability, or the plan or the token’s creator no longer allows it.',
  404: 'Not found (including another account’s link).',
  409: 'The Idempotency-Key’s first request is still running.',
  413: 'The body is larger than 64 KB.',
  422: 'Validation failed; fields lists the messages per field.',
  429: 'Too many requests for this token; see Retry-After.',
};

const COMMON_REFUSALS = [401, 402, 403, 429];

/**
 * The error codes of the API's own refusals: each error body's doc_url points at its entry
 * (`/app/dev#error-<code>`). Link rules keep the portal's codes (url_not_allowed, alias_taken…),
 * whose messages say what is wrong; they are listed under validation_failed's family.
 */
export const ERROR_CATALOGUE: { code: string; status: number; meaning: string }[] = [
  {
    code: 'unauthenticated',
    status: 401,
    meaning: 'No token, or an unknown, revoked or expired one.',
  },
  {
    code: 'not_enough_credits',
    status: 402,
    meaning: 'The account has no API credits left this period.',
  },
  {
    code: 'paid_only',
    status: 402,
    meaning: 'The change needs a paid plan (e.g. a new destination).',
  },
  {
    code: 'ability_missing',
    status: 403,
    meaning: 'The token was not given the ability this call needs.',
  },
  {
    code: 'permission_denied',
    status: 403,
    meaning: 'The token’s creator no longer manages the account’s API.',
  },
  {
    code: 'feature_not_allowed',
    status: 403,
    meaning: 'The account’s plan does not include the API.',
  },
  { code: 'not_found', status: 404, meaning: 'No such route.' },
  { code: 'alias_not_found', status: 404, meaning: 'No such link in the token’s account.' },
  {
    code: 'idempotency_key_in_flight',
    status: 409,
    meaning: 'The key’s first request is still running.',
  },
  { code: 'body_too_large', status: 413, meaning: 'The body is larger than 64 KB.' },
  {
    code: 'validation_failed',
    status: 422,
    meaning: 'Fields are wrong; fields lists each message.',
  },
  { code: 'invalid_body', status: 422, meaning: 'The body is not a JSON object.' },
  { code: 'cursor_invalid', status: 422, meaning: 'The cursor was not made by this API.' },
  {
    code: 'idempotency_key_invalid',
    status: 422,
    meaning: 'The Idempotency-Key is not 1 to 255 printable characters.',
  },
  {
    code: 'idempotency_key_reused',
    status: 422,
    meaning: 'The Idempotency-Key was used for another request.',
  },
  {
    code: 'rate_limited',
    status: 429,
    meaning: 'Too many calls for this token; wait Retry-After seconds.',
  },
];

type Json = Record<string, unknown>;

/** Schemas of one registry as components, cross-referenced by their component names. */
function components(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'throw',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(generated).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema;
      return [id, rest];
    }),
  );
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function queryParameters(query: z.ZodObject): Json[] {
  const schema = z.toJSONSchema(query, { target: 'draft-2020-12', io: 'input' }) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Calls this token may make per window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Calls left in this window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window ends.',
    schema: { type: 'integer' },
  },
};

function operationObject(operation: Operation): Json {
  const parameters: Json[] = [];
  if (operation.path.includes('{id}')) {
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
    });
  }
  if (operation.query) parameters.push(...queryParameters(operation.query));
  if (operation.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Replays the first answer for 24 hours instead of creating again; another request with the same key is refused (422).',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const { success } = operation;
  const responses: Json = {
    [String(success.status)]: {
      description: success.description,
      headers: RATE_HEADERS,
      ...(success.schema
        ? { content: { 'application/json': { schema: ref(success.schema) } } }
        : success.mediaType
          ? { content: { [success.mediaType]: { schema: { type: 'string' } } } }
          : {}),
    },
  };
  for (const status of [...COMMON_REFUSALS, ...(operation.refusals ?? [])].sort()) {
    responses[String(status)] = {
      description: STATUS_TEXT[status],
      content: { 'application/json': { schema: ref('Error') } },
      ...(status === 429
        ? {
            headers: {
              ...RATE_HEADERS,
              'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
            },
          }
        : {}),
    };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `Needs the token ability \`${operation.ability}\`. Spends one API credit.`,
    security: [{ apiToken: [] }],
    'x-ability': operation.ability,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(operation.body) } },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const operation of OPERATIONS) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shortlane API',
      version: '1.0.0',
      description: [
        'Short links, domains and analytics of one account (a person’s workspace or a team),',
        'for API tokens made in the portal (Settings → API).',
        'Send the token as `Authorization: Bearer slt_…`.',
        `Abilities: ${ABILITIES.join(', ')}.`,
        'Every call spends one API credit (402 when none are left) and counts against the',
        'token’s rate limit (429 with Retry-After). Every refusal is',
        '`{ "error": { "code", "message", "doc_url" } }`.',
      ].join(' '),
    },
    servers: [{ url: '/functions/v1/api', description: 'This project’s edge functions' }],
    'x-error-codes': ERROR_CATALOGUE,
    paths,
    components: {
      securitySchemes: {
        apiToken: { type: 'http', scheme: 'bearer', description: 'An API token (slt_…).' },
      },
      schemas: {
        ...components(REQUEST_SCHEMAS, 'input'),
        ...components(RESPONSE_SCHEMAS, 'output'),
      },
    },
  };
}
