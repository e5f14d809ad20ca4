import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { apiTokenKeys } from './keys.ts';
import type { ApiTokenInput } from './token-create-mutation.ts';

/** Renames a token and sets its abilities; field errors stay on the form. */
export function useUpdateApiTokenMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async ({ id, ...input }: ApiTokenInput & { id: string }) =>
      unwrap(
        await supabase
          .rpc('update_api_token', {
            p_token_id: id,
            p_name: input.name,
            p_abilities: input.abilities,
          })
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1'),
      ),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(userId, accountId) }),
  });
}
