/**
 * The public REST API, v1 (`/functions/v1/api/v1/…`), on Hono. Every route: the gate first
 * (token, rate limit, ability, plan, one credit: gate.ts), then the request validated with its
 * zod schema (schemas.ts), then the work as the token's creator confined to the token's account
 * (data.ts). Every refusal has one body (errors.ts) and every answer after the token is known
 * carries X-RateLimit-Limit/Remaining/Reset.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { preflight } from '../_shared/cors.ts';
import { HttpError } from '../_shared/http.ts';
import type { ShortUrlBase } from '../_shared/short-url.ts';
import { checkShape } from '../links/destination.ts';
import { destinationError } from '../_shared/url-safety.ts';
import { fieldErrors } from '../links/errors.ts';
import {
  errorsOf,
  parseObject,
  readText,
  typeErrors,
  validateLinkRequest,
} from '../links/request.ts';
import {
  accountAnalytics,
  archiveLink,
  asTokenUser,
  bulkCreate,
  createLink,
  deleteLink,
  linkAnalytics,
  listDomains,
  listLinks,
  readLink,
  updateLink,
} from './data.ts';
import { API_MESSAGES, apiError, type DocUrl, errorResponse } from './errors.ts';
import { type Ability, admit, type Gate, type TokenContext } from './gate.ts';
import { idempotencyKey, oncePerKey } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { qrSvg } from './qr.ts';
import {
  analyticsQuery,
  bulkCreateBody,
  linkArchiveBody,
  linkCreateBody,
  linkIdParam,
  linkListQuery,
  linkUpdateBody,
} from './schemas.ts';

export interface ApiDependencies {
  gate: Gate;
  shortUrlBase: ShortUrlBase;
  docUrl: DocUrl;
  now: () => Date;
}

export const API_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, content-type, idempotency-key',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'Access-Control-Expose-Headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed',
};

/** A value checked against its schema, or the 422 naming each field at fault. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value, { error: typeErrors });
  if (!parsed.success) throw fieldErrors(422, 'validation_failed', errorsOf(parsed.error));
  return parsed.data;
}

/** JSON, or the body as is when the route names its own Content-Type (the QR code's SVG). */
function answer(body: unknown, status: number, headers: Record<string, string>): Response {
  const typed = 'Content-Type' in headers;
  return new Response(status === 204 ? null : typed ? String(body) : JSON.stringify(body), {
    status,
    headers: {
      ...API_CORS_HEADERS,
      ...(status === 204 || typed ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
  });
}

async function readJsonBody(request: Request): Promise<{ text: string; body: unknown }> {
  const text = await readText(request);
  return { text, body: parseObject(text) };
}

export function createApiApp(deps: ApiDependencies): Hono {
  const app = new Hono().basePath('/api');
  const base = deps.shortUrlBase;

  /** Gate, work, answer: the shape of every route. */
  const route =
    (
      ability: Ability,
      work: (
        context: TokenContext,
        c: Context,
      ) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
    ) =>
    async (c: Context): Promise<Response> => {
      let headers: Record<string, string> = {};
      try {
        const admitted = await admit(deps.gate, c.req.raw, ability);
        headers = admitted.headers;
        const result = await work(admitted.context, c);
        return answer(result.body, result.status, { ...headers, ...result.headers });
      } catch (error) {
        return errorResponse(error, deps.docUrl, { ...API_CORS_HEADERS, ...headers });
      }
    };

  // The description of all this, for anyone (no token, no credit).
  const document = JSON.stringify(openApiDocument());
  app.get(
    '/openapi.json',
    () =>
      new Response(document, {
        headers: { ...API_CORS_HEADERS, 'Content-Type': 'application/json' },
      }),
  );

  const idOf = (c: Context) => validate(linkIdParam, { id: c.req.param('id') }).id;

  app.post(
    '/v1/links',
    route('links:write', async (context, c) => {
      const key = idempotencyKey(c.req.raw);
      const { text, body } = await readJsonBody(c.req.raw);
      // The portal's rules and messages first; then what the API does not take (team, the
      // guest's anti_robot_token and ccpa_accepted) is refused by the API's own schema.
      // Pixels are the API's own field; the portal's rules read the rest.
      const { pixels: _pixels, ...linkFields } = (body ?? {}) as Record<string, unknown>;
      const input = await validateLinkRequest(linkFields, deps.now());
      const { pixels } = validate(linkCreateBody, body);
      // Our own and banned domains are the database's to refuse (create_link, as for the portal).
      const destination = input.destination;
      const answer = await oncePerKey(context.tokenId, key, `POST /v1/links\n${text}`, (record) =>
        asTokenUser(context, async (tx) => {
          const created = await createLink(
            tx,
            context,
            {
              url: destination.url,
              domain: input.domain,
              alias: input.alias,
              tags: input.tags,
              description: input.description,
              expiresAt: input.expiresAt,
            },
            base,
            pixels,
          );
          const result = { status: 201, body: created };
          await record(tx, result);
          return result;
        }),
      );
      return {
        status: answer.status,
        body: answer.body,
        headers: answer.replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
      };
    }),
  );

  app.post(
    '/v1/links/bulk',
    route('bulk', async (context, c) => {
      // Bulk creation needs create plus bulk (app-shell 6).
      if (!context.abilities.includes('links:write')) {
        throw apiError(403, 'ability_missing', API_MESSAGES.abilityMissing);
      }
      const key = idempotencyKey(c.req.raw);
      const { text, body } = await readJsonBody(c.req.raw);
      const input = validate(bulkCreateBody, body);
      const answer = await oncePerKey(
        context.tokenId,
        key,
        `POST /v1/links/bulk\n${text}`,
        (record) =>
          asTokenUser(context, async (tx) => {
            const result = { status: 200, body: await bulkCreate(tx, context, input, base) };
            await record(tx, result);
            return result;
          }),
      );
      return {
        status: answer.status,
        body: answer.body,
        headers: answer.replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
      };
    }),
  );

  app.get(
    '/v1/links',
    route('links:read', async (context, c) => {
      const filters = validate(linkListQuery, c.req.query());
      return {
        status: 200,
        body: await asTokenUser(context, (tx) => listLinks(tx, context, filters, base)),
      };
    }),
  );

  app.get(
    '/v1/links/:id',
    route('links:read', async (context, c) => {
      const id = idOf(c);
      return {
        status: 200,
        body: await asTokenUser(context, (tx) => readLink(tx, context, id, base)),
      };
    }),
  );

  app.patch(
    '/v1/links/:id',
    route('links:write', async (context, c) => {
      const id = idOf(c);
      const { body } = await readJsonBody(c.req.raw);
      const changes = validate(linkUpdateBody, body);
      let url = changes.url;
      if (url !== undefined) {
        // The create form's URL rules, so an edit cannot smuggle in what a create refuses.
        url = (await validateDestination(url)).url;
      }
      return {
        status: 200,
        body: await asTokenUser(context, (tx) =>
          updateLink(
            tx,
            context,
            id,
            {
              url,
              alias: changes.alias,
              description: changes.description,
              tags: changes.tags,
              expiresAt: changes.expires_at,
              pixels: changes.pixels,
            },
            base,
          ),
        ),
      };
    }),
  );

  app.post(
    '/v1/links/:id/archive',
    route('links:write', async (context, c) => {
      const id = idOf(c);
      const { body } = await readJsonBody(c.req.raw);
      const { archived } = validate(linkArchiveBody, body);
      return {
        status: 200,
        body: await asTokenUser(context, (tx) => archiveLink(tx, context, id, archived, base)),
      };
    }),
  );

  app.delete(
    '/v1/links/:id',
    route('links:write', async (context, c) => {
      const id = idOf(c);
      await asTokenUser(context, (tx) => deleteLink(tx, context, id));
      return { status: 204, body: null };
    }),
  );

  app.get(
    '/v1/links/:id/analytics',
    route('analytics:read', async (context, c) => {
      const id = idOf(c);
      const { period } = validate(analyticsQuery, c.req.query());
      return {
        status: 200,
        body: await asTokenUser(context, (tx) => linkAnalytics(tx, context, id, period)),
      };
    }),
  );

  app.get(
    '/v1/links/:id/qr',
    route('links:read', async (context, c) => {
      const id = idOf(c);
      const link = await asTokenUser(context, (tx) => readLink(tx, context, id, base));
      return {
        status: 200,
        body: await qrSvg(link.tiny_url),
        headers: { 'Content-Type': 'image/svg+xml' },
      };
    }),
  );

  app.get(
    '/v1/analytics',
    route('analytics:read', async (context, c) => {
      const { period } = validate(analyticsQuery, c.req.query());
      return {
        status: 200,
        body: await asTokenUser(context, (tx) => accountAnalytics(tx, context, period)),
      };
    }),
  );

  app.get(
    '/v1/domains',
    route('domains:read', async (context) => ({
      status: 200,
      body: await asTokenUser(context, (tx) => listDomains(tx, context)),
    })),
  );

  app.notFound(() =>
    errorResponse(apiError(404, 'not_found', API_MESSAGES.notFound), deps.docUrl, API_CORS_HEADERS),
  );
  app.onError((error) => errorResponse(error, deps.docUrl, API_CORS_HEADERS));
  return app;
}

/** The URL text rules of the create form (links/destination.ts step 1), as a refusal. */
async function validateDestination(url: string) {
  const shape = await checkShape(url);
  if (!shape.ok) throw destinationError(shape);
  return shape;
}

export function createApiHandler(deps: ApiDependencies): (request: Request) => Promise<Response> {
  const app = createApiApp(deps);
  return async (request) => {
    if (preflight(request)) return new Response('ok', { headers: API_CORS_HEADERS });
    try {
      return await app.fetch(request);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error, deps.docUrl, API_CORS_HEADERS);
      throw error;
    }
  };
}
