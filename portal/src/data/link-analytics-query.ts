import { isStatsPeriod, type StatsPeriod } from '@shortlane/shared/constants.ts';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { analyticsKeys } from './keys.ts';
import { ApiError, unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * Click analytics through the RPCs of migrations 001110 and 001800: a link's (by its id), an
 * account's, and a shared link's (by its public token); what the caller may do on a link's
 * analytics; sharing; and the click log as CSV. Answers are jsonb, so they are checked here.
 */

const breakdownItem = z.object({ value: z.string().nullable(), clicks: z.number() });
export type BreakdownItem = z.infer<typeof breakdownItem>;

/** Clicks a link's redirect route sent (migration 002900); route_id null: its destination. */
const routeItem = z.object({
  route_id: z.string().nullable(),
  url: z.string().nullable(),
  position: z.number().nullable(),
  clicks: z.number(),
});
export type RouteBreakdownItem = z.infer<typeof routeItem>;

const reportSchema = z.object({
  period: z.string().refine(isStatsPeriod),
  from: z.string(),
  to: z.string(),
  unit: z.enum(['minute', 'hour', 'day']),
  clicks: z.number(),
  bot_clicks: z.number(),
  qr_clicks: z.number(),
  series: z.array(z.object({ time: z.string(), clicks: z.number() })),
  countries: z.array(breakdownItem),
  devices: z.array(breakdownItem),
  browsers: z.array(breakdownItem),
  oses: z.array(breakdownItem),
  referrers: z.array(breakdownItem),
  /** A link's report only. */
  routes: z.array(routeItem).optional(),
  domain: z.string().optional(),
  alias: z.string().optional(),
});
export type AnalyticsReport = z.infer<typeof reportSchema>;
export type ReportUnit = AnalyticsReport['unit'];
export type BreakdownDimension =
  'countries' | 'devices' | 'browsers' | 'oses' | 'referrers' | 'routes';

const accessSchema = z.object({
  alias_id: z.string(),
  domain: z.string(),
  alias: z.string(),
  periods: z.array(z.string().refine(isStatsPeriod)),
  can_share: z.boolean(),
  share_token: z.string().nullable(),
  can_download_logs: z.boolean(),
});
export interface LinkAnalyticsAccess extends Omit<z.infer<typeof accessSchema>, 'periods'> {
  periods: StatsPeriod[];
}

function parse<Shape>(schema: z.ZodType<Shape>, data: unknown): Shape {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new ApiError(`Unexpected analytics answer: ${result.error.message}`, 200, data);
  }
  return result.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** share_link_analytics' tokens: 24 base64url characters. */
const SHARE_TOKEN = /^[A-Za-z0-9_-]{24}$/;

/**
 * The `{hash}` of analytics/{hash}: a link's id opens its own analytics (for readers of the
 * link), a share token its public analytics (for anyone).
 */
export type AnalyticsTarget =
  { kind: 'link'; aliasId: string } | { kind: 'shared'; token: string } | { kind: 'invalid' };

export function analyticsTarget(hash: string | undefined): AnalyticsTarget {
  if (hash != null && UUID.test(hash)) return { kind: 'link', aliasId: hash.toLowerCase() };
  if (hash != null && SHARE_TOKEN.test(hash)) return { kind: 'shared', token: hash };
  return { kind: 'invalid' };
}

export async function fetchLinkAnalytics(
  supabase: PortalSupabase,
  aliasId: string,
  period: StatsPeriod,
): Promise<AnalyticsReport> {
  const data = unwrap(
    await supabase.rpc('link_analytics', { p_alias_id: aliasId, p_period: period }),
  );
  return parse(reportSchema, data);
}

export async function fetchSharedAnalytics(
  supabase: PortalSupabase,
  token: string,
  period: StatsPeriod,
): Promise<AnalyticsReport> {
  const data = unwrap(
    await supabase.rpc('public_link_analytics', { p_token: token, p_period: period }),
  );
  return parse(reportSchema, data);
}

const accountAccessSchema = z.object({
  account_id: z.string(),
  periods: z.array(z.string()),
});

/** The stats periods of an account's analytics the caller's plan covers (none: no analytics). */
export async function fetchAccountAnalyticsAccess(
  supabase: PortalSupabase,
  accountId: string,
): Promise<StatsPeriod[]> {
  // The dashboard panel shows its own state when this fails.
  const data = unwrap(
    await supabase
      .rpc('account_analytics_access', { p_account_id: accountId })
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
  );
  return parse(accountAccessSchema, data).periods.filter(isStatsPeriod);
}

export async function fetchAccountAnalytics(
  supabase: PortalSupabase,
  accountId: string,
  period: StatsPeriod,
): Promise<AnalyticsReport> {
  // The dashboard panel shows its own state (a plan without analytics is no alarm there).
  const data = unwrap(
    await supabase
      .rpc('account_analytics', { p_account_id: accountId, p_period: period })
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
  );
  return parse(reportSchema, data);
}

export async function fetchLinkAnalyticsAccess(
  supabase: PortalSupabase,
  aliasId: string,
): Promise<LinkAnalyticsAccess> {
  const data = unwrap(await supabase.rpc('link_analytics_access', { p_alias_id: aliasId }));
  const access = parse(accessSchema, data);
  return { ...access, periods: access.periods.filter(isStatsPeriod) };
}

/** The raw clicks of a link over a period, as CSV text (PostgREST answers text/csv). */
export async function fetchClickLogCsv(
  supabase: PortalSupabase,
  aliasId: string,
  period: StatsPeriod,
): Promise<string> {
  const result = await supabase
    .rpc('click_log_csv', { p_alias_id: aliasId, p_period: period })
    .csv();
  if (result.error) throw new ApiError(result.error.message, result.status, result.error);
  return typeof result.data === 'string' ? result.data : '';
}

// Reports stay on screen while the next period loads, and refresh every minute: clicks arrive
// all the time.
const REPORT_OPTIONS = { placeholderData: keepPreviousData, refetchInterval: 60_000 } as const;

/** A link's or a shared link's analytics, whichever `target` names (nothing for `invalid`). */
export function useAnalyticsReportQuery(target: AnalyticsTarget, period: StatsPeriod | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  const request =
    target.kind === 'link'
      ? {
          key: analyticsKeys.link(userId ?? '', target.aliasId, period ?? ''),
          fetch: (chosen: StatsPeriod) => fetchLinkAnalytics(supabase, target.aliasId, chosen),
          ready: userId != null,
        }
      : target.kind === 'shared'
        ? {
            key: analyticsKeys.shared(target.token, period ?? ''),
            fetch: (chosen: StatsPeriod) => fetchSharedAnalytics(supabase, target.token, chosen),
            ready: true,
          }
        : null;
  return useQuery({
    ...REPORT_OPTIONS,
    queryKey: request?.key ?? ['analytics', 'invalid'],
    queryFn: () => request!.fetch(period!),
    enabled: request != null && request.ready && period != null,
  });
}

export function useLinkAnalyticsAccessQuery(aliasId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: analyticsKeys.linkAccess(userId ?? '', aliasId ?? ''),
    queryFn: () => fetchLinkAnalyticsAccess(supabase, aliasId!),
    enabled: userId != null && aliasId != null,
  });
}

/** The query behind useAccountAnalyticsAccessQuery, also asked before the page renders. */
export function accountAnalyticsAccessQuery(
  supabase: PortalSupabase,
  userId: string | null,
  accountId: string | null,
) {
  return queryOptions({
    queryKey: analyticsKeys.accountAccess(userId ?? '', accountId ?? ''),
    queryFn: () => fetchAccountAnalyticsAccess(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

export function useAccountAnalyticsAccessQuery(accountId: string | null) {
  return useQuery(accountAnalyticsAccessQuery(useSupabase(), useUserId(), accountId));
}

/**
 * An account's clicks over `period`. Pass null as the period where the plan does not cover it
 * (useAccountAnalyticsAccessQuery): nothing is asked that the server would refuse.
 */
export function useAccountAnalyticsQuery(accountId: string | null, period: StatsPeriod | null) {
  return useQuery(accountAnalyticsQuery(useSupabase(), useUserId(), accountId, period));
}

/** The query behind useAccountAnalyticsQuery, also asked before the page renders. */
export function accountAnalyticsQuery(
  supabase: PortalSupabase,
  userId: string | null,
  accountId: string | null,
  period: StatsPeriod | null,
) {
  return queryOptions({
    ...REPORT_OPTIONS,
    queryKey: analyticsKeys.account(userId ?? '', accountId ?? '', period ?? ''),
    queryFn: () => fetchAccountAnalytics(supabase, accountId!, period!),
    enabled: userId != null && accountId != null && period != null,
  });
}

/** Shares (answers the public token) or stops sharing a link's analytics. */
export function useShareAnalyticsMutation(aliasId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (share: boolean): Promise<string | null> => {
      if (!share) {
        const result = await supabase.rpc('unshare_link_analytics', { p_alias_id: aliasId });
        if (result.error) throw new ApiError(result.error.message, result.status, result.error);
        return null;
      }
      return unwrap(await supabase.rpc('share_link_analytics', { p_alias_id: aliasId }));
    },
    onSuccess: (token) => {
      const key = analyticsKeys.linkAccess(userId ?? '', aliasId);
      queryClient.setQueryData<LinkAnalyticsAccess>(key, (access) =>
        access ? { ...access, share_token: token } : access,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
