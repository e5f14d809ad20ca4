import type { QuoteRequest } from '@shortlane/shared/schemas/quote.ts';
import { useMutation } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';

/**
 * Sends an Enterprise quote request (public.request_quote). The form shows refusals on its
 * fields and the rate limit itself, so the global notice stays quiet.
 */
export function useQuoteRequestMutation() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (request: QuoteRequest) =>
      unwrap(
        await supabase
          .rpc('request_quote', {
            p_name: request.name,
            p_email: request.email,
            p_company: request.company ?? '',
            p_links_per_month: request.links_per_month,
            p_team_size: request.team_size,
            p_message: request.message ?? '',
          })
          .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
      ),
  });
}
