import type { PixelProvider } from '@shortlane/shared/pixels.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { saveOwnedRow } from '../save-owned-row.ts';
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
    mutationFn: ({ id, ...values }: PixelInput & { id?: string }) =>
      saveOwnedRow(supabase, {
        table: 'pixels',
        id,
        values,
        owner: { account_id: accountId },
        quiet: true,
      }),
    // A changed id changes what the links carrying it fire: their lists too.
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: pixelKeys.all(userId) }),
  });
}
