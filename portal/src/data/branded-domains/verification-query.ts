import { FunctionsHttpError } from '@supabase/supabase-js';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { ApiError } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { brandedDomainKeys } from './keys.ts';

const verificationSchema = z.object({
  id: z.string(),
  domain: z.string(),
  verification_status: z.enum(['pending', 'verified', 'failed']),
  verification_problem: z.string().nullable(),
  verification_checked_at: z.string().nullable(),
  verification_next_check_at: z.string().nullable(),
  verification_deadline: z.string().nullable(),
  verified_at: z.string().nullable(),
  target: z.object({ cname: z.string(), addresses: z.array(z.string()) }),
});
export type DomainVerification = z.infer<typeof verificationSchema>;

/**
 * Asks the domain-verify function to check the domain now (when it is pending) and answers its
 * state with where it must point. The function does the DNS queries; the portal only shows them.
 */
export async function checkDomainNow(
  supabase: PortalSupabase,
  domainId: string,
): Promise<DomainVerification> {
  const { data, error } = await supabase.functions.invoke<unknown>('domain-verify', {
    method: 'POST',
    body: { domain_id: domainId },
    // The page says what went wrong itself.
    headers: { [OWN_ERROR_NOTICE_HEADER]: '1' },
  });
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const response = error.context as Response;
      const body: unknown = await response.json().catch(() => null);
      throw new ApiError(error.message, response.status, body);
    }
    throw error;
  }
  const parsed = verificationSchema.safeParse(data);
  if (!parsed.success) throw new Error(`Unexpected verification answer: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * How long to wait before checking a pending domain again: 5 s, doubling up to a minute (the
 * background verifier's own pace), so an open page costs little while DNS propagates.
 */
export function verificationPollDelay(
  state: Pick<DomainVerification, 'verification_status'> | undefined,
  polls: number,
  { firstMs = 5_000, maxMs = 60_000 } = {},
): number | false {
  if (state != null && state.verification_status !== 'pending') return false;
  return Math.min(firstMs * 2 ** polls, maxMs);
}

export function useDomainVerificationQuery(domainId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...brandedDomainKeys.detail(userId ?? '', `verify:${domainId ?? ''}`)],
    queryFn: () => checkDomainNow(supabase, domainId!),
    enabled: userId != null && domainId != null,
    refetchInterval: (query) =>
      query.state.error
        ? false
        : verificationPollDelay(query.state.data, query.state.dataUpdateCount - 1),
    retry: false,
  });
}
