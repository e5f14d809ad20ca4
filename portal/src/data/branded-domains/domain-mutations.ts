import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { domainKeys } from '../keys.ts';
import { ApiError, unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';

/**
 * Every domain query of the user: a change to one domain changes lists, usage and details, and
 * the domains the create form offers.
 */
function useInvalidateDomains() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return () =>
    userId == null
      ? undefined
      : Promise.all([
          queryClient.invalidateQueries({ queryKey: brandedDomainKeys.all(userId) }),
          queryClient.invalidateQueries({ queryKey: domainKeys.list(userId) }),
        ]);
}

/**
 * Adds a domain the customer owns to an account: a pending row the verifier then checks. The
 * database refuses banned, ours, taken names and names beyond the plan (coded errors).
 */
export function useAddDomainMutation() {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (input: {
      accountId: string;
      domain: string;
      kind: 'branded' | 'organization';
    }) => {
      const { data, error, status } = await supabase
        .from('domains')
        .insert({ domain: input.domain, kind: input.kind, account_id: input.accountId })
        .select('id, domain')
        .single()
        .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
      if (error || !data)
        throw new ApiError(error?.message ?? 'No domain came back.', status, error);
      return data;
    },
    onSuccess: invalidate,
  });
}

/** Claims <subdomain>.<base domain>: live at once (public.create_vanity_subdomain). */
export function useClaimVanitySubdomainMutation() {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (input: { accountId: string; subdomain: string; baseDomainId: string }) => {
      const { data, error, status } = await supabase.rpc('create_vanity_subdomain', {
        p_account_id: input.accountId,
        p_subdomain: input.subdomain,
        p_base_domain_id: input.baseDomainId,
      });
      if (error || !data)
        throw new ApiError(error?.message ?? 'No domain came back.', status, error);
      return { id: data.id, domain: data.domain };
    },
    onSuccess: invalidate,
  });
}

export interface DomainRedirects {
  root_redirect_url: string | null;
  not_found_redirect_url: string | null;
}

/** Saves a domain's root and 404 redirects (the plan's features decide, in the policy). */
export function useUpdateDomainRedirectsMutation(domainId: string) {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (redirects: DomainRedirects) => {
      const { data, error, status } = await supabase
        .from('domains')
        .update(redirects)
        .eq('id', domainId)
        .select('id')
        .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
      if (error) throw new ApiError(error.message, status, error);
      // RLS hides a row the user may not change: nothing updated is a refusal, not a success.
      if (!data || data.length === 0) {
        throw new ApiError('Permission denied', 403, { details: 'Permission denied' });
      }
    },
    onSuccess: invalidate,
  });
}

/** An organization domain for every team, or only for the chosen ones (public.domain_teams). */
export function useSetDomainTeamsMutation(domainId: string) {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (input: { forAllTeams: boolean; teamIds: string[]; current: string[] }) => {
      const removed = input.current.filter((id) => !input.teamIds.includes(id));
      const added = input.teamIds.filter((id) => !input.current.includes(id));
      // Teams first, the switch last: a failure leaves the domain as narrow as it was.
      if (added.length > 0) {
        const { error, status } = await supabase
          .from('domain_teams')
          .insert(added.map((teamId) => ({ domain_id: domainId, team_id: teamId })))
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
        if (error) throw new ApiError(error.message, status, error);
      }
      if (removed.length > 0) {
        const { error, status } = await supabase
          .from('domain_teams')
          .delete()
          .eq('domain_id', domainId)
          .in('team_id', removed)
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
        if (error) throw new ApiError(error.message, status, error);
      }
      const { error, status } = await supabase
        .from('domains')
        .update({ for_all_teams: input.forAllTeams })
        .eq('id', domainId)
        .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
      if (error) throw new ApiError(error.message, status, error);
    },
    onSuccess: invalidate,
  });
}

/**
 * Deletes a domain: its links stop answering and the name is free to be added again (the
 * database moves it aside; migration 20261122004500).
 */
export function useDeleteDomainMutation() {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (domainId: string) => {
      const { data, error, status } = await supabase
        .from('domains')
        .update({ is_deleted: true })
        .eq('id', domainId)
        .select('id')
        .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
      if (error) throw new ApiError(error.message, status, error);
      if (!data || data.length === 0) {
        throw new ApiError('Permission denied', 403, { details: 'Permission denied' });
      }
    },
    onSuccess: invalidate,
  });
}

/** Starts a failed domain's verification again, with a fresh deadline. */
export function useRestartVerificationMutation() {
  const supabase = useSupabase();
  const invalidate = useInvalidateDomains();
  return useMutation({
    mutationFn: async (domainId: string) =>
      unwrap(await supabase.rpc('restart_domain_verification', { p_domain_id: domainId })),
    onSuccess: invalidate,
  });
}
