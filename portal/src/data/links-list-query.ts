import { orgPermissionsOf, type OrgPermission } from '@shortlane/shared/permissions.ts';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { analyticsKeys, linkKeys, organizationKeys, teamKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * The link lists (dashboard, organization pages): one account's links, or the links made in an
 * organization, by state, with a `type:query` search, a page at a time. Row-level security
 * decides what the caller sees; this only narrows it down.
 *
 * A search within one account goes through the database's search_links (a walk of the newest
 * links, or the trigram indexes; bench/db.ts measures it on 1M links), paged by keyset: page n
 * starts after page n-1's last link. The unsearched list, and a search across an organization's
 * accounts (org.dashboard), filter the aliases table through PostgREST, paged by offset.
 */

/** The states a list shows; deleted links are never listed, terminated ones are staff business. */
export const LINK_LIST_STATES = ['active', 'expired', 'archived'] as const;
export type LinkListState = (typeof LINK_LIST_STATES)[number];

export function isLinkListState(value: unknown): value is LinkListState {
  return typeof value === 'string' && (LINK_LIST_STATES as readonly string[]).includes(value);
}

/** The alias statuses that count as a live link (app.alias_is_active). */
export const ACTIVE_ALIAS_STATUSES = ['active', 'no_affiliate', 'can_affiliate'] as const;

/** Which links: an account's, the ones made in an organization, or an account's made in one. */
export type LinkListScope =
  | { accountId: string; organizationId?: string }
  | { accountId?: undefined; organizationId: string };

export const LINK_SEARCH_FIELDS = ['any', 'alias', 'url', 'tag', 'description'] as const;
export type LinkSearchField = (typeof LINK_SEARCH_FIELDS)[number];

/** A parsed `type:query` search; `any` looks in the alias and the destination. */
export interface LinkSearch {
  field: LinkSearchField;
  term: string;
}

export interface LinkListParams {
  scope: LinkListScope;
  state: LinkListState;
  search: LinkSearch | null;
  /** 1-based. */
  page: number;
  perPage: number;
}

export interface LinkListItem {
  id: string;
  alias: string;
  domain: string;
  longUrl: string;
  status: string;
  expiresAt: string | null;
  description: string | null;
  tags: string[];
  createdAt: string;
  accountId: string | null;
  organizationId: string | null;
  createdBy: string | null;
}

export interface LinkListPage {
  items: LinkListItem[];
  page: number;
  hasNextPage: boolean;
}

export const DEFAULT_LINKS_PER_PAGE = 25;

/** Where a keyset page starts: after this link, newest first. */
export interface LinkListCursor {
  createdAt: string;
  id: string;
}

/** A literal ILIKE pattern: the user's % and _ are not wildcards. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A value inside PostgREST's or=(…) list: quoted, so commas and parentheses stay literal. */
function quotedFilterValue(value: string): string {
  return `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
}

// aliases reaches long_urls through two foreign keys (the plain one and the one that keeps a
// link and its destination in one account): the hint names the plain one.
const LONG_URL = 'long_urls!aliases_long_url_id_fkey';
const COLUMNS = `id, alias, status, expires_at, description, created_at, account_id, organization_id, created_by, domain:domains!inner(domain), long_url:${LONG_URL}!inner(url), alias_tags(tag:tags(name))`;

interface LinkRowShape {
  id: string;
  alias: string;
  status: string;
  expires_at: string | null;
  description: string | null;
  created_at: string;
  account_id: string | null;
  organization_id: string | null;
  created_by: string | null;
  domain: { domain: string };
  long_url: { url: string };
  alias_tags: { tag: { name: string } | null }[];
}

function toItem(row: LinkRowShape): LinkListItem {
  return {
    id: row.id,
    alias: row.alias,
    domain: row.domain.domain,
    longUrl: row.long_url.url,
    status: row.status,
    expiresAt: row.expires_at,
    description: row.description,
    tags: row.alias_tags
      .flatMap((entry) => (entry.tag ? [entry.tag.name] : []))
      .sort((a, b) => a.localeCompare(b)),
    createdAt: row.created_at,
    accountId: row.account_id,
    organizationId: row.organization_id,
    createdBy: row.created_by,
  };
}

/** The extra embeddings a search filters through (they add nothing to the rows). */
function searchEmbeddings(search: LinkSearch | null): string {
  if (search == null) return '';
  if (search.field === 'url') return `, url_match:${LONG_URL}!inner()`;
  if (search.field === 'any') return `, url_match:${LONG_URL}()`;
  if (search.field === 'tag') return ', tag_match:alias_tags!inner(tags!inner())';
  return '';
}

function checkPaging(page: number, perPage: number) {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`Invalid page: ${page}`);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    throw new RangeError(`Invalid page size: ${perPage}`);
  }
}

/** One row beyond the page says whether there is a next one, without a count. */
function toPage(rows: LinkRowShape[], page: number, perPage: number): LinkListPage {
  return {
    items: rows.slice(0, perPage).map(toItem),
    page,
    hasNextPage: rows.length > perPage,
  };
}

/** Whether a list's search runs in search_links: a search within one account. */
export function searchesInDatabase(params: Pick<LinkListParams, 'scope' | 'search'>): boolean {
  return params.scope.accountId != null && params.search != null && params.search.term !== '';
}

/**
 * A page of an account's search, from search_links: `after` is the previous page's last link
 * (null for the first page). Its rows carry the same columns as the list's.
 */
export async function fetchLinkSearchPage(
  supabase: PortalSupabase,
  params: LinkListParams,
  after: LinkListCursor | null,
): Promise<LinkListPage> {
  const { scope, state, search, page, perPage } = params;
  checkPaging(page, perPage);
  if (scope.accountId == null || search == null || search.term === '') {
    throw new TypeError('fetchLinkSearchPage: a search within one account');
  }
  const rows = unwrap(
    await supabase
      .rpc('search_links', {
        p_account_id: scope.accountId,
        p_query: search.term,
        p_field: search.field,
        p_state: state,
        p_limit: perPage + 1,
        p_after_created_at: after?.createdAt,
        p_after_id: after?.id,
        p_organization_id: scope.organizationId,
      })
      .select(COLUMNS)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false }),
  ) as unknown as LinkRowShape[];
  return toPage(rows, page, perPage);
}

export async function fetchLinkList(
  supabase: PortalSupabase,
  params: LinkListParams,
  now: Date = new Date(),
): Promise<LinkListPage> {
  const { scope, state, search, page, perPage } = params;
  checkPaging(page, perPage);
  const nowIso = now.toISOString();
  let query = supabase.from('aliases').select(COLUMNS + searchEmbeddings(search));

  if (scope.accountId != null) query = query.eq('account_id', scope.accountId);
  if (scope.organizationId != null) query = query.eq('organization_id', scope.organizationId);

  if (state === 'archived') {
    query = query.eq('status', 'archived');
  } else {
    query = query.in('status', [...ACTIVE_ALIAS_STATUSES]);
    query =
      state === 'expired'
        ? query.lte('expires_at', nowIso)
        : query.or(`expires_at.is.null,expires_at.gt.${nowIso}`);
  }

  if (search != null && search.term !== '') {
    const pattern = containsPattern(search.term);
    switch (search.field) {
      case 'alias':
        query = query.ilike('alias', pattern);
        break;
      case 'description':
        query = query.ilike('description', pattern);
        break;
      case 'url':
        query = query.ilike('url_match.url', pattern);
        break;
      case 'tag':
        query = query.eq('tag_match.tags.name', search.term);
        break;
      case 'any':
        // PostgREST's or() cannot name an embedded column: the embedding is filtered on its own
        // and the or() asks whether it matched.
        query = query
          .ilike('url_match.url', pattern)
          .or(`alias.ilike.${quotedFilterValue(pattern)},url_match.not.is.null`);
        break;
    }
  }

  // A count would make PostgREST refuse an offset past the end, which a list that just shrank
  // can ask for.
  const from = (page - 1) * perPage;
  const rows = unwrap(
    await query
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .range(from, from + perPage),
  ) as unknown as LinkRowShape[];
  return toPage(rows, page, perPage);
}

/**
 * Page n of an account's search starts after page n-1's last link: the cached page n-1, or that
 * page fetched (and cached) first, as an address that opens on page n asks. Null for the first
 * page; 'end' when page n-1 ended the list (it shrank), so page n is empty and the list view
 * goes back a page, as after an offset past the end.
 */
async function searchCursor(
  client: QueryClient,
  supabase: PortalSupabase,
  userId: string,
  params: LinkListParams,
): Promise<LinkListCursor | null | 'end'> {
  if (params.page === 1) return null;
  const before = { ...params, page: params.page - 1 };
  const previous =
    client.getQueryData<LinkListPage>(linkKeys.list(userId, before)) ??
    (await client.fetchQuery(linkListQuery(supabase, userId, before)));
  const last = previous.items.at(-1);
  return previous.hasNextPage && last ? { createdAt: last.createdAt, id: last.id } : 'end';
}

/** The query behind useLinkListQuery, also asked before the page renders. */
export function linkListQuery(
  supabase: PortalSupabase,
  userId: string | null,
  params: LinkListParams,
  enabled = true,
) {
  return queryOptions({
    queryKey: linkKeys.list(userId ?? '', params),
    queryFn: async ({ client }): Promise<LinkListPage> => {
      if (!searchesInDatabase(params)) return fetchLinkList(supabase, params);
      const after = await searchCursor(client, supabase, userId ?? '', params);
      if (after === 'end') return { items: [], page: params.page, hasNextPage: false };
      return fetchLinkSearchPage(supabase, params, after);
    },
    enabled: enabled && userId != null,
    // Paging and typing a search keep the last rows on screen until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useLinkListQuery(params: LinkListParams, enabled = true) {
  return useQuery(linkListQuery(useSupabase(), useUserId(), params, enabled));
}

/** After a link changed: every list and the click figures that may show it. */
export function invalidateLinkData(queryClient: QueryClient, userId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: linkKeys.all(userId) }),
    queryClient.invalidateQueries({ queryKey: analyticsKeys.all(userId) }),
  ]).then(() => undefined);
}

/** The account behind a team (team mode's dashboard lists the team's links). */
export async function fetchTeamAccountId(
  supabase: PortalSupabase,
  teamId: string,
): Promise<string> {
  const row = unwrap<{ account_id: string }>(
    await supabase.from('teams').select('account_id').eq('id', teamId).single(),
  );
  return row.account_id;
}

export function useTeamAccountIdQuery(teamId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...teamKeys.all(userId ?? ''), 'account-id', teamId ?? ''],
    queryFn: () => fetchTeamAccountId(supabase, teamId!),
    enabled: userId != null && teamId != null,
    staleTime: Infinity,
  });
}

/** An organization the page names by slug, as its lists and its create form need it. */
export interface OrganizationBySlug {
  id: string;
  slug: string;
  /** The organization's account: its domains' owner. */
  accountId: string;
  /** Owner, or a role holding 'teams': viewers' teams stay choosable (link-creation 5). */
  canManageTeams: boolean;
  /** The organization permissions the user holds there: all for the owner, else their role's. */
  permissions: readonly OrgPermission[];
}

/** The organization organization/{org} (null when not visible to the user). */
export function useOrganizationBySlugQuery(orgSlug: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...organizationKeys.mine(userId ?? ''), 'by-slug', orgSlug],
    queryFn: async (): Promise<OrganizationBySlug | null> => {
      const result = await supabase
        .from('organizations')
        .select(
          'id, slug, account_id, account:accounts(owner_id), organization_users(user_id, role:organization_roles(permissions))',
        )
        .eq('slug', orgSlug)
        .maybeSingle();
      const row = result.error ? unwrap(result) : result.data;
      if (!row) return null;
      const ownRole = row.organization_users.find((member) => member.user_id === userId)?.role;
      const permissions = orgPermissionsOf(
        {
          owner: { id: row.account?.owner_id ?? '' },
          role: ownRole ? { permissions: ownRole.permissions.map((name) => ({ name })) } : null,
          teams: [],
        },
        userId!,
      );
      return {
        id: row.id,
        slug: row.slug,
        accountId: row.account_id,
        canManageTeams: permissions.has('teams'),
        permissions: [...permissions],
      };
    },
    enabled: userId != null,
  });
}

/** The account of the team organization/{org}/team/{team} (null when not visible). */
export function useOrganizationTeamAccountIdQuery(orgSlug: string, teamSlug: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...teamKeys.bySlug(userId ?? '', orgSlug, teamSlug ?? ''), 'account-id'],
    queryFn: async () => {
      const result = await supabase
        .from('teams')
        .select('account_id, organization:organizations!inner(slug)')
        .eq('slug', teamSlug!)
        .eq('organization.slug', orgSlug)
        .maybeSingle();
      return result.error ? unwrap(result) : (result.data?.account_id ?? null);
    },
    enabled: userId != null && teamSlug != null,
  });
}
