/**
 * The API's database work, always inside one transaction as the token's creator (row-level
 * security and the RPCs' permission checks apply to them) and always confined to the token's
 * account: a team token never reaches another team's links, even when its creator could.
 * Writes go through the portal's RPCs (create_link, update_link, archive_link, delete_link) and
 * analytics through the portal's (link_analytics, account_analytics): the same SQL, once.
 */
import { MESSAGES } from '../../../shared/src/messages.ts';
import { shortUrl, type ShortUrlBase } from '../_shared/short-url.ts';
import { asClaims, type CallerSql } from '../_shared/sql.ts';
import type { ChunkAnswer } from '../bulk-import/jobs.ts';
import { messageOf } from '../bulk-import/process-job.ts';
import { checkRow, type PreparedRow } from '../bulk-import/validate-row.ts';
import { insertLink, type LinkDraft } from '../links/create.ts';
import { apiError } from './errors.ts';
import type { TokenContext } from './gate.ts';

export interface ApiLink {
  id: string;
  url: string;
  domain: string;
  alias: string;
  tiny_url: string;
  status: string;
  tags: string[];
  description: string | null;
  expires_at: string | null;
  created_at: string;
  pixels: string[];
}

interface LinkRow {
  id: string;
  url: string;
  domain: string;
  alias: string;
  status: string;
  tags: string[];
  description: string | null;
  expires_at: Date | null;
  created_at: Date;
  cursor_at: string;
  pixels: string[];
}

/** Runs `work` as the token's creator, as PostgREST would run their own request. */
export function asTokenUser<T>(context: TokenContext, work: (tx: CallerSql) => Promise<T>) {
  return asClaims(
    { role: 'authenticated', sub: context.userId, aud: 'authenticated', aal: 'aal1' },
    work,
  );
}

const aliasNotFound = () => apiError(404, 'alias_not_found', MESSAGES.aliasNotFound);

function toApiLink(row: Omit<LinkRow, 'cursor_at'>, base: ShortUrlBase): ApiLink {
  return {
    id: row.id,
    url: row.url,
    domain: row.domain,
    alias: row.alias,
    tiny_url: shortUrl({ domain: row.domain, alias: row.alias }, base),
    status: row.status,
    tags: row.tags,
    description: row.description,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    pixels: row.pixels,
  };
}

function selectLinks(tx: CallerSql, accountId: string, where: ReturnType<CallerSql>) {
  return tx<LinkRow[]>`
    select a.id, u.url, d.domain::text as domain, a.alias::text as alias, a.status,
      a.description, a.expires_at, a.created_at, a.created_at::text as cursor_at,
      array(select t.name::text from public.alias_tags at join public.tags t on t.id = at.tag_id
            where at.alias_id = a.id order by t.name) as tags,
      array(select x.pixel_id::text from public.alias_pixels x where x.alias_id = a.id
            order by x.pixel_id) as pixels
    from public.aliases a
    join public.long_urls u on u.id = a.long_url_id
    join public.domains d on d.id = a.domain_id
    where a.account_id = ${accountId} and a.status <> 'deleted' and ${where}`;
}

/** The account's link, or 404 (another account's link does not exist for this token). */
export async function readLink(
  tx: CallerSql,
  context: TokenContext,
  id: string,
  base: ShortUrlBase,
): Promise<ApiLink> {
  const [row] = await selectLinks(tx, context.accountId, tx`a.id = ${id}`);
  if (!row) throw aliasNotFound();
  return toApiLink(row, base);
}

export async function requireOwnLink(tx: CallerSql, context: TokenContext, id: string) {
  const [row] = await tx`select 1 from public.aliases a
    where a.id = ${id} and a.account_id = ${context.accountId} and a.status <> 'deleted'`;
  if (!row) throw aliasNotFound();
}

export interface ListFilters {
  limit: number;
  cursor?: string;
  status: 'active' | 'archived';
  domain?: string;
  tag?: string;
  q?: string;
}

interface Cursor {
  at: string;
  id: string;
}

const encodeCursor = (cursor: Cursor) =>
  btoa(JSON.stringify([cursor.at, cursor.id]))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

function decodeCursor(text: string): Cursor {
  try {
    const [at, id] = JSON.parse(atob(text.replace(/-/g, '+').replace(/_/g, '/'))) as unknown[];
    if (
      typeof at === 'string' &&
      typeof id === 'string' &&
      /^[0-9a-f-]{36}$/.test(id) &&
      // Postgres's own timestamptz text (microseconds, "+00"), as the page that made it wrote it.
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at)
    ) {
      return { at, id };
    }
  } catch {
    // falls through to the refusal
  }
  throw apiError(422, 'cursor_invalid', 'The cursor is invalid.');
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the account's links, newest first, keyset-paginated on (created_at, id). */
export async function listLinks(
  tx: CallerSql,
  context: TokenContext,
  filters: ListFilters,
  base: ShortUrlBase,
): Promise<{ data: ApiLink[]; next_cursor: string | null }> {
  const cursor = filters.cursor ? decodeCursor(filters.cursor) : null;
  const rows = await tx<LinkRow[]>`
    ${selectLinks(
      tx,
      context.accountId,
      tx`${
        filters.status === 'archived'
          ? tx`a.status = 'archived'`
          : tx`a.status in ('active', 'no_affiliate', 'can_affiliate')`
      }
      ${cursor ? tx`and (a.created_at, a.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : tx``}
      ${filters.domain ? tx`and d.domain = ${filters.domain.toLowerCase()}` : tx``}
      ${
        filters.tag
          ? tx`and exists (select 1 from public.alias_tags at join public.tags t on t.id = at.tag_id
                         where at.alias_id = a.id and t.name = ${filters.tag.toLowerCase()})`
          : tx``
      }
      ${
        filters.q
          ? tx`and (a.alias::text ilike ${likePattern(filters.q)}
                    or u.url ilike ${likePattern(filters.q)})`
          : tx``
      }`,
    )}
    order by a.created_at desc, a.id desc
    limit ${filters.limit + 1}`;
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toApiLink(row, base)),
    next_cursor:
      rows.length > filters.limit && last
        ? encodeCursor({ at: last.cursor_at, id: last.id })
        : null,
  };
}

/** The link's pixels replaced (set_link_pixels: the account's own, by those who manage it). */
async function setPixels(tx: CallerSql, id: string, pixels: readonly string[] | null | undefined) {
  if (pixels === undefined || pixels === null) return;
  await tx`select public.set_link_pixels(${id}::uuid, ${pixels as string[]}::uuid[])`;
}

/**
 * create_link for the token's account (a team's links carry the team's organization). The
 * answer is the link as create_link returns it (app.link_json, the row it just wrote): reading
 * it back would cost a round trip for the same fields. Pixels, set after it, are read back.
 */
export async function createLink(
  tx: CallerSql,
  context: TokenContext,
  draft: LinkDraft,
  base: ShortUrlBase,
  pixels?: readonly string[] | null,
): Promise<ApiLink> {
  const items = await insertLink(tx, draft, {
    accountId: context.accountId,
    organizationId: context.organizationId,
  });
  const item = items[0];
  const link = item?.aliases[0] as CreatedAlias | undefined;
  if (!item || typeof link?.id !== 'string') throw new Error('create_link answered no alias id');
  if (pixels !== undefined && pixels !== null && pixels.length > 0) {
    await setPixels(tx, link.id, pixels);
    return await readLink(tx, context, link.id, base);
  }
  return toApiLink(
    {
      id: link.id,
      url: item.url,
      domain: link.domain,
      alias: link.alias,
      status: link.status,
      tags: link.tags,
      description: link.description,
      expires_at: link.expires_at === null ? null : new Date(link.expires_at),
      created_at: new Date(link.created_at),
      pixels: [],
    },
    base,
  );
}

/** The fields of app.link_json's alias the API answers with (timestamps as JSON text). */
interface CreatedAlias {
  id: string;
  domain: string;
  alias: string;
  status: string;
  tags: string[];
  description: string | null;
  expires_at: string | null;
  created_at: string;
}

export interface LinkChanges {
  url?: string;
  alias?: string;
  description?: string;
  tags?: string[];
  /** undefined: unchanged; null: removed. */
  expiresAt?: string | null;
  /** undefined: unchanged; otherwise the link's pixels from now on. */
  pixels?: string[];
}

export async function updateLink(
  tx: CallerSql,
  context: TokenContext,
  id: string,
  changes: LinkChanges,
  base: ShortUrlBase,
): Promise<ApiLink> {
  await requireOwnLink(tx, context, id);
  await tx`select public.update_link(
    p_alias_id => ${id}::uuid,
    p_alias => ${changes.alias ?? null},
    p_url => ${changes.url ?? null},
    p_tags => ${changes.tags ?? null}::text[],
    p_expires_at => ${changes.expiresAt ?? null}::timestamptz,
    p_remove_expiry => ${changes.expiresAt === null},
    p_description => ${changes.description ?? null})`;
  await setPixels(tx, id, changes.pixels);
  return await readLink(tx, context, id, base);
}

export async function archiveLink(
  tx: CallerSql,
  context: TokenContext,
  id: string,
  archived: boolean,
  base: ShortUrlBase,
): Promise<ApiLink> {
  await requireOwnLink(tx, context, id);
  await tx`select public.archive_link(${id}::uuid, ${archived})`;
  return await readLink(tx, context, id, base);
}

export async function deleteLink(tx: CallerSql, context: TokenContext, id: string) {
  await requireOwnLink(tx, context, id);
  await tx`select public.delete_link(${id}::uuid)`;
}

export async function listDomains(tx: CallerSql, context: TokenContext) {
  const data = await tx<
    {
      id: string;
      domain: string;
      kind: string;
      verification_status: 'pending' | 'verified' | 'failed';
      usable: boolean;
    }[]
  >`
    select d.id, d.domain::text as domain, d.kind, d.verification_status,
      (d.verification_status = 'verified' and not (d.is_disabled or d.is_blocked)) as usable
    from public.domains d
    where not d.is_deleted
      and (d.kind = 'common' or d.account_id = ${context.accountId}
           or d.account_id = (select o.account_id from public.organizations o
                              where o.id = ${context.organizationId}::uuid))
    order by d.kind, d.domain`;
  return { data };
}

export async function linkAnalytics(
  tx: CallerSql,
  context: TokenContext,
  id: string,
  period: string,
) {
  await requireOwnLink(tx, context, id);
  const [row] = await tx<{ answer: Record<string, unknown> }[]>`
    select public.link_analytics(${id}::uuid, ${period}) as answer`;
  return row!.answer;
}

export async function accountAnalytics(tx: CallerSql, context: TokenContext, period: string) {
  const [row] = await tx<{ answer: Record<string, unknown> }[]>`
    select public.account_analytics(${context.accountId}::uuid, ${period}) as answer`;
  return row!.answer;
}

export interface BulkLink {
  url: string;
  alias?: string | null;
  tags?: string[] | null;
}

export interface BulkAnswer {
  created: { row: number; alias: string; tiny_url: string }[];
  /** Row (1-based, in the order sent) → field → messages, as the bulk import reports rows. */
  errors: Record<number, Record<string, string[]>>;
}

/**
 * Bulk creation through the bulk import's own SQL: a job scheduled by app.schedule_bulk_job
 * (the form's rules: workspace, use_bulk, the domain), the rows checked as the import checks a
 * file's (bulk-import/validate-row.ts) and created set-based by app.bulk_create_links, the job
 * finished by app.finish_bulk_job (which notifies its owner, as for a file). One transaction:
 * the request's rows are created, refused per row, or not at all.
 */
export async function bulkCreate(
  tx: CallerSql,
  context: TokenContext,
  input: { domain: string; links: BulkLink[] },
  base: ShortUrlBase,
): Promise<BulkAnswer> {
  const [workspace] = await tx<{ team: string | null; organization: string | null }[]>`
    select t.slug as team, o.slug as organization
    from public.accounts a
    left join public.teams t on t.account_id = a.id
    left join public.organizations o on o.id = t.organization_id
    where a.id = ${context.accountId}`;
  const jobId = crypto.randomUUID();
  const [scheduled] = await tx<{ job: { domain: string } }[]>`
    select app.schedule_bulk_job(${jobId}, ${input.domain}, 'API request', 'csv', false,
      ${input.links.length}, ${workspace?.organization ?? null}, ${workspace?.team ?? null}) as job`;
  const domain = scheduled!.job.domain;
  const errors: BulkAnswer['errors'] = {};
  const prepared: PreparedRow[] = [];
  for (const [index, link] of input.links.entries()) {
    const check = await checkRow({
      row: index + 1,
      url: link.url,
      alias: link.alias ?? '',
      tags: (link.tags ?? []).join(','),
    });
    if (check.ok) prepared.push(check.row);
    else errors[check.row] = check.errors;
  }
  const [chunk] = await tx<{ answer: ChunkAnswer }[]>`
    select app.bulk_create_links(${jobId}, ${tx.json(prepared as never)},
      ${input.links.length - prepared.length}) as answer`;
  for (const [row, field, code] of chunk!.answer.errors) {
    (errors[row] ??= {})[field] = [messageOf(code)];
  }
  await tx`select app.finish_bulk_job(${jobId}, false, ${tx.json(errors as never)}, null)`;
  return {
    created: chunk!.answer.created.map(([row, alias]) => ({
      row,
      alias,
      tiny_url: shortUrl({ domain, alias }, base),
    })),
    errors,
  };
}
