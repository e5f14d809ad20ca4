/**
 * The public API's wire format as zod schemas: every request is validated with them, and the
 * OpenAPI document is generated from them (openapi.ts). They describe shape and types only; the
 * link rules themselves (URL safety, alias and tag formats, expiry window, plan features,
 * limits) are the portal's, applied by the shared validation and the create_link/update_link
 * RPCs, so the API refuses exactly what the portal refuses, with the same messages.
 */
import { z } from 'zod';
import { ABILITIES } from './abilities.ts';

export const STATS_PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'] as const;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

const nullableText = (description: string) => z.string().nullish().meta({ description });

/** Retargeting pixels by id (the account's, settings/pixel-scripts): a visit fires them. */
const pixelIds = z.array(z.uuid()).max(10).meta({
  description:
    "Ids of the account's retargeting pixels a visit fires (at most 10); replaces the link's.",
});

export const linkCreateBody = z
  .object({
    url: z.string().meta({ description: 'The destination: an http or https URL.' }),
    domain: z
      .string()
      .meta({ description: 'A short domain the account may use (GET /v1/domains).' }),
    alias: nullableText('A custom alias (plan feature use_custom_alias); omitted: a random one.'),
    description: nullableText('Only for links of an organization.'),
    tags: z
      .array(z.string())
      .nullish()
      .meta({ description: 'Tags (plan feature use_tags), 2 to 45 characters each.' }),
    expires_at: nullableText(
      'When the link stops working, an ISO 8601 timestamp at least 5 minutes ahead (plan feature manage_expiration).',
    ),
    pixels: pixelIds.nullish(),
  })
  .strict();

export const linkUpdateBody = z
  .object({
    url: z.string().optional().meta({ description: 'A new destination (change_long_url).' }),
    alias: z.string().optional().meta({ description: 'A new alias.' }),
    description: z.string().optional(),
    tags: z.array(z.string()).optional().meta({ description: 'Replaces the tags.' }),
    expires_at: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'A new expiry, or null to remove it.' }),
    pixels: pixelIds.optional(),
  })
  .strict();

export const linkArchiveBody = z.object({ archived: z.boolean().default(true) }).strict();

/** Links per bulk request: one set-based statement, answered while the caller waits. */
export const MAX_BULK_LINKS = 100;

export const bulkCreateBody = z
  .object({
    domain: z.string().meta({ description: 'The short domain of every link.' }),
    links: z
      .array(
        z
          .object({
            url: z.string(),
            alias: z.string().nullish(),
            tags: z.array(z.string()).nullish(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_BULK_LINKS),
  })
  .strict()
  .meta({ description: `1 to ${MAX_BULK_LINKS} links on one domain.` });

export const bulkResult = z
  .object({
    created: z.array(z.object({ row: z.number().int(), alias: z.string(), tiny_url: z.string() })),
    errors: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  })
  .meta({ description: 'Rows are numbered from 1 in the order sent.' });

export const linkListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    cursor: z.string().max(200).optional().meta({ description: 'next_cursor of the last page.' }),
    status: z.enum(['active', 'archived']).default('active'),
    domain: z.string().max(253).optional(),
    tag: z.string().max(45).optional(),
    q: z.string().max(100).optional().meta({ description: 'Part of the alias or destination.' }),
  })
  .strict();

export const analyticsQuery = z
  .object({ period: z.enum(STATS_PERIODS).default('last_24_hour') })
  .strict();

export const linkIdParam = z.object({ id: z.uuid() });

export const link = z.object({
  id: z.uuid(),
  url: z.string(),
  domain: z.string(),
  alias: z.string(),
  tiny_url: z.string(),
  status: z.string(),
  tags: z.array(z.string()),
  description: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  pixels: z.array(z.uuid()).meta({ description: 'Ids of the retargeting pixels a visit fires.' }),
});

export const linkPage = z.object({ data: z.array(link), next_cursor: z.string().nullable() });

export const domain = z.object({
  id: z.uuid(),
  domain: z.string(),
  kind: z.string(),
  /** Where DNS verification stands (our own domains are verified by staff). */
  verification_status: z.enum(['pending', 'verified', 'failed']),
  /** True when links may be made on it now: verified, and neither disabled nor blocked. */
  usable: z.boolean(),
});

export const domainList = z.object({ data: z.array(domain) });

const breakdown = z.array(z.object({ value: z.string().nullable(), clicks: z.number().int() }));

/** public.link_analytics / account_analytics as the portal reads them. */
export const analytics = z
  .object({
    period: z.enum(STATS_PERIODS),
    from: z.string(),
    to: z.string(),
    unit: z.enum(['minute', 'hour', 'day']),
    clicks: z.number().int(),
    bot_clicks: z.number().int(),
    qr_clicks: z.number().int(),
    series: z.array(z.object({ time: z.string(), clicks: z.number().int() })),
    countries: breakdown,
    devices: breakdown,
    browsers: breakdown,
    oses: breakdown,
    referrers: breakdown,
  })
  .catchall(z.unknown())
  .meta({ description: 'Clicks over a stats period, bots excluded.' });

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    doc_url: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
});

export const abilities = z.enum(ABILITIES);
