import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { ApiError } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { pixelKeys } from './keys.ts';

/** Deletes a pixel; the links carrying it stop firing it (the database removes it from them). */
export function useDeletePixelMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (pixelId: string) => {
      const { error, status } = await supabase.from('pixels').delete().eq('id', pixelId);
      if (error) throw new ApiError(error.message, status, error);
    },
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: pixelKeys.all(userId) }),
  });
}
