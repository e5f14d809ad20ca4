import type { Json } from '@shortlane/shared/database.types.ts';
import type { RedirectRoute } from '@shortlane/shared/routing.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import type { BuilderData } from '../features/links/list/routeBuilder.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { linkKeys } from './keys.ts';
import { ApiError, unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * A link's redirect routes (migration 002900): the builder data (route_builder_init, the spec's
 * `GET routes/init`, refused without the redirect_routes feature), the link's saved routes (the
 * tables, under their policies), and saving them all at once (save_alias_routes).
 */

/** The builder data, or null when the caller's plan has no redirect routes. */
export function useRouteBuilderQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: linkKeys.routeBuilder(userId ?? ''),
    enabled: userId != null,
    staleTime: Infinity,
    queryFn: async (): Promise<BuilderData | null> => {
      try {
        return unwrap(
          await supabase.rpc('route_builder_init').setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
        ) as unknown as BuilderData;
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return null;
        throw error;
      }
    },
  });
}

export function useLinkRoutesQuery(aliasId: string, enabled: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: linkKeys.routes(userId ?? '', aliasId),
    enabled: enabled && userId != null,
    queryFn: async (): Promise<RedirectRoute[]> => {
      const rows = unwrap(
        await supabase
          .from('alias_routes')
          .select(
            'id, url, url_condition_id, position, alias_route_rules (value_id, condition_id, operation_id, operands, argument, position)',
          )
          .eq('alias_id', aliasId)
          .order('position'),
      );
      return rows.map((row) => ({
        id: row.id,
        url: row.url,
        match: row.url_condition_id,
        rules: [...row.alias_route_rules]
          .sort((a, b) => a.position - b.position)
          .map((rule) => ({
            value: rule.value_id,
            condition: rule.condition_id,
            operation: rule.operation_id,
            operands: rule.operands,
            argument: rule.argument,
          })),
      }));
    },
  });
}

export function useSaveRoutesMutation(aliasId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (routes: RedirectRoute[]) =>
      unwrap(
        await supabase.rpc('save_alias_routes', {
          p_alias_id: aliasId,
          p_routes: routes as unknown as Json,
        }),
      ),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: linkKeys.routes(userId, aliasId) }),
  });
}
