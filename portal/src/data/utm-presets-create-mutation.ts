import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UtmPreset } from '@shortlane/shared/schemas/utm-preset.ts';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';
import { utmPresetKeys, type UtmPresetRow } from './utm-presets-query.ts';

export interface CreateUtmPresetInput {
  accountId: string;
  preset: UtmPreset;
}

/**
 * "preset/create" (link-creation 7): the global error handling is off for it, because the
 * builder shows a 422 on its own fields and any other failure as one notice of its own.
 */
export function useCreateUtmPresetMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async ({ accountId, preset }: CreateUtmPresetInput): Promise<UtmPresetRow> => {
      const saved = unwrap(
        await supabase
          .rpc('create_utm_preset', {
            p_account_id: accountId,
            p_name: preset.name,
            p_utm_source: preset.utm_source ?? '',
            p_utm_medium: preset.utm_medium ?? '',
            p_utm_campaign: preset.utm_campaign ?? '',
            p_utm_term: preset.utm_term ?? undefined,
            p_utm_content: preset.utm_content ?? undefined,
          })
          .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
      );
      return {
        id: saved.id,
        name: saved.name,
        utm_source: saved.utm_source,
        utm_medium: saved.utm_medium,
        utm_campaign: saved.utm_campaign,
        utm_term: saved.utm_term,
        utm_content: saved.utm_content,
      };
    },
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: utmPresetKeys.all(userId) }),
  });
}
