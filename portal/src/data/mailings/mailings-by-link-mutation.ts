import { useMutation } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';

export interface MailingsByLinkResult {
  /** The recipient's address, masked: the link's holder need not be its owner. */
  email: string;
  receivesMailings: boolean;
}

/**
 * Stops or restarts product e-mails by the link of one of them, signed in or not. The page says
 * what a refused link means itself, so the global notice stays quiet.
 */
export function useMailingsByLinkMutation(token: string) {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (receive: boolean): Promise<MailingsByLinkResult> => {
      const answer = unwrap(
        await supabase
          .rpc('set_mailings_by_link', { p_token: token, p_receive: receive })
          .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
      ) as { email: string; receives_mailings: boolean };
      return { email: answer.email, receivesMailings: answer.receives_mailings };
    },
  });
}
