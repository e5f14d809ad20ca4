import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { pixelKeys } from './keys.ts';

/** The ids of the pixels a link fires (public.alias_pixels, under its policies). */
export function useLinkPixelsQuery(aliasId: string, enabled = true) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: pixelKeys.link(userId ?? '', aliasId),
    enabled: enabled && userId != null,
    queryFn: async (): Promise<string[]> => {
      const rows = unwrap(
        await supabase.from('alias_pixels').select('pixel_id').eq('alias_id', aliasId),
      );
      return rows.map((row) => row.pixel_id);
    },
  });
}

/** Replaces a link's pixels at once (public.set_link_pixels: all or nothing). */
export function useSaveLinkPixelsMutation(aliasId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (pixelIds: string[]) =>
      unwrap(await supabase.rpc('set_link_pixels', { p_alias_id: aliasId, p_pixel_ids: pixelIds })),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: pixelKeys.link(userId, aliasId) }),
  });
}
