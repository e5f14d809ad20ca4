import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { userScope } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * An organization's audit trail (public.organization_audit_trail, which checks the `audit`
 * permission): pages of events newest first, the filters' choices, and everything under the
 * filters for the CSV export.
 */
export interface AuditEvent {
  id: number;
  created_at: string;
  /** Null for changes no signed-in person made (jobs, payment providers, staff scripts). */
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  action: string;
  subject_table: string;
  subject_id: string | null;
  target: string | null;
  ip: string | null;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
}

export interface AuditFilters {
  actorId: string | null;
  action: string | null;
  /** Inclusive start and exclusive end, as ISO timestamps. */
  from: string | null;
  to: string | null;
}

export interface AuditFilterChoices {
  actors: { id: string; email: string; name: string }[];
  actions: string[];
}

export const AUDIT_PAGE_SIZE = 50;
/** The export reads in pages this large (the most the call answers at once)… */
const EXPORT_PAGE_SIZE = 1000;
/** …and stops here, saying so, rather than hold a browser tab hostage. */
export const EXPORT_MAX_EVENTS = 50_000;

const auditKeys = {
  all: (userId: string, organizationId: string) =>
    [...userScope(userId), 'audit', organizationId] as const,
};

async function fetchAuditPage(
  supabase: PortalSupabase,
  organizationId: string,
  filters: AuditFilters,
  beforeId: number | null,
  limit: number,
): Promise<AuditEvent[]> {
  // The generated types call every column non-null; actor, target and IP may be null.
  return unwrap(
    await supabase.rpc('organization_audit_trail', {
      p_organization_id: organizationId,
      p_actor_id: filters.actorId ?? undefined,
      p_action: filters.action ?? undefined,
      p_from: filters.from ?? undefined,
      p_to: filters.to ?? undefined,
      p_before_id: beforeId ?? undefined,
      p_limit: limit,
    }),
  ) as unknown as AuditEvent[];
}

export function useAuditTrailQuery(organizationId: string | null, filters: AuditFilters) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useInfiniteQuery({
    queryKey: [...auditKeys.all(userId ?? '', organizationId ?? ''), 'events', filters],
    queryFn: ({ pageParam }) =>
      fetchAuditPage(supabase, organizationId!, filters, pageParam, AUDIT_PAGE_SIZE),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length === AUDIT_PAGE_SIZE ? (last[last.length - 1]?.id ?? null) : null,
    enabled: userId != null && organizationId != null,
  });
}

export function useAuditFilterChoicesQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...auditKeys.all(userId ?? '', organizationId ?? ''), 'filters'],
    queryFn: async () =>
      unwrap(
        await supabase.rpc('organization_audit_filters', { p_organization_id: organizationId! }),
      ) as unknown as AuditFilterChoices,
    enabled: userId != null && organizationId != null,
  });
}

/** Every event under the filters, newest first, up to EXPORT_MAX_EVENTS; `truncated` if more. */
export async function fetchAuditExport(
  supabase: PortalSupabase,
  organizationId: string,
  filters: AuditFilters,
  onProgress: (count: number) => void,
): Promise<{ events: AuditEvent[]; truncated: boolean }> {
  const events: AuditEvent[] = [];
  let beforeId: number | null = null;
  for (;;) {
    const page = await fetchAuditPage(
      supabase,
      organizationId,
      filters,
      beforeId,
      EXPORT_PAGE_SIZE,
    );
    events.push(...page);
    onProgress(events.length);
    if (page.length < EXPORT_PAGE_SIZE) return { events, truncated: false };
    if (events.length >= EXPORT_MAX_EVENTS)
      return { events: events.slice(0, EXPORT_MAX_EVENTS), truncated: true };
    beforeId = page[page.length - 1]!.id;
  }
}
