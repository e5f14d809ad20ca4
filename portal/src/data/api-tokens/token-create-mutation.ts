import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { ApiError, unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { apiTokenKeys } from './keys.ts';

export interface ApiTokenInput {
  name: string;
  abilities: string[];
}

/** The answer of create_api_token: the only time the plain token is seen. */
export interface CreatedApiToken {
  id: string;
  token: string;
  token_prefix: string;
  name: string;
}

function isCreated(value: unknown): value is CreatedApiToken {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return typeof row.id === 'string' && typeof row.token === 'string';
}

/**
 * Mints a token for the account. The RPC answers 423 without a recent password sign-in: the
 * global handler asks for the password and retries (app-shell 8). Field errors stay on the form.
 */
export function useCreateApiTokenMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (input: ApiTokenInput & { expiresAt: string | null }) => {
      const data: unknown = unwrap(
        await supabase
          .rpc('create_api_token', {
            p_name: input.name,
            p_abilities: input.abilities,
            p_account_id: accountId,
            ...(input.expiresAt ? { p_expires_at: input.expiresAt } : {}),
          })
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1'),
      );
      if (!isCreated(data)) throw new ApiError('create_api_token answered no token.', 200, data);
      return data;
    },
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(userId, accountId) }),
  });
}
