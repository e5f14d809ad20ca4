import { FunctionsHttpError } from '@supabase/supabase-js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { ssoKeys } from './keys.ts';

/** A refusal with the sentence to show (the function's field message, or the RPC's detail). */
export class SsoError extends Error {}

async function invokeOrgSso(
  supabase: ReturnType<typeof useSupabase>,
  body: Record<string, unknown>,
): Promise<unknown> {
  const { data, error } = await supabase.functions.invoke<unknown>('org-sso', { body });
  if (!error) return data;
  if (error instanceof FunctionsHttpError) {
    const answer = (await (error.context as Response).json().catch(() => null)) as {
      message?: string;
      errors?: Record<string, string[]>;
    } | null;
    const first = answer?.errors ? Object.values(answer.errors).flat()[0] : undefined;
    throw new SsoError(first ?? answer?.message ?? 'Something went wrong.');
  }
  throw error;
}

function rpcFailure(error: { message: string; details?: string | null }): SsoError {
  return new SsoError(error.details || error.message);
}

/** Every change to the organization's SSO; each refreshes the setting. */
export function useSsoMutations(organizationId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: ssoKeys.setting(userId ?? '', organizationId) });
  return {
    saveProvider: useMutation({
      mutationFn: (metadata: { metadata_url: string } | { metadata_xml: string }) =>
        invokeOrgSso(supabase, {
          action: 'save_provider',
          organization_id: organizationId,
          ...metadata,
        }),
      onSuccess,
    }),
    claimDomain: useMutation({
      mutationFn: async (domain: string) => {
        const result = await supabase.rpc('claim_sso_domain', {
          p_organization_id: organizationId,
          p_domain: domain,
        });
        if (result.error) throw rpcFailure(result.error);
        return unwrap(result);
      },
      onSuccess,
    }),
    verifyDomain: useMutation({
      mutationFn: (domainId: string) =>
        invokeOrgSso(supabase, { action: 'verify_domain', domain_id: domainId }),
      onSuccess,
    }),
    removeDomain: useMutation({
      mutationFn: async (domainId: string) => {
        const result = await supabase.rpc('remove_sso_domain', { p_domain_id: domainId });
        if (result.error) throw rpcFailure(result.error);
        await invokeOrgSso(supabase, { action: 'sync', organization_id: organizationId });
      },
      onSuccess,
    }),
    saveOptions: useMutation({
      mutationFn: async (options: { defaultRoleId: string | null; requireSso: boolean }) => {
        const result = await supabase.rpc('set_sso_options', {
          p_organization_id: organizationId,
          p_default_role_id: options.defaultRoleId as string,
          p_require_sso: options.requireSso,
        });
        if (result.error) throw rpcFailure(result.error);
      },
      onSuccess,
    }),
  };
}
