import type { PixelProvider } from '@shortlane/shared/pixels.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { pixelKeys } from './keys.ts';

export interface PixelInput {
  provider: PixelProvider;
  pixel_id: string;
  name: string;
}

/**
 * Adds a pixel (no id) or changes one. The form shows a refused id (422, the database's format
 * check) or a duplicate (409) on its fields, so the global error handling is off for it.
 */
export function useSavePixelMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async ({ id, ...input }: PixelInput & { id?: string }) => {
      const table = supabase.from('pixels');
      const query = id
        ? table.update(input).eq('id', id)
        : table.insert({ ...input, account_id: accountId });
      return unwrap(await query.select('id').single().setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'));
    },
    // A changed id changes what the links carrying it fire: their lists too.
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: pixelKeys.all(userId) }),
  });
}
