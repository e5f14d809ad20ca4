import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { refreshAppState } from '../refresh.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/** What a mailed invitation link shows (public.invitation_by_token). */
export interface LinkedInvitation {
  id: string;
  email: string;
  source: 'organization' | 'team';
  state: 'pending' | 'expired' | 'used';
  organization: { name: string; slug: string } | null;
  team: { name: string; slug: string } | null;
  inviterName: string | null;
  role: string | null;
  accountExists: boolean;
}

interface Answer {
  id: string;
  email: string;
  source: string;
  state: string;
  organization: { name: string; slug: string } | null;
  team: { name: string; slug: string } | null;
  inviter_name: string | null;
  role: string | null;
  account_exists: boolean;
}

const asLinked = (answer: Answer): LinkedInvitation => ({
  id: answer.id,
  email: answer.email,
  source: answer.source === 'team' ? 'team' : 'organization',
  state: answer.state === 'expired' || answer.state === 'used' ? answer.state : 'pending',
  organization: answer.organization,
  team: answer.team,
  inviterName: answer.inviter_name,
  role: answer.role,
  accountExists: answer.account_exists,
});

export function useLinkedInvitationQuery(token: string) {
  const supabase = useSupabase();
  return useQuery({
    // Not under the user's scope: the page shows it before anyone signs in.
    queryKey: ['invitation-link', token] as const,
    queryFn: async () =>
      asLinked(
        // The page says what is wrong with a link; no global notice on top.
        unwrap(
          await supabase
            .rpc('invitation_by_token', { p_token: token })
            .setHeader(OWN_ERROR_NOTICE_HEADER, '1'),
        ) as unknown as Answer,
      ),
    enabled: token !== '',
    retry: false,
  });
}

/** Accepts or rejects by link; the invitation lists and the app state follow. */
export function useAnswerLinkedInvitationMutation(token: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (answer: 'accept' | 'reject') =>
      unwrap(
        await supabase
          .rpc(answer === 'accept' ? 'accept_invitation_token' : 'reject_invitation_token', {
            p_token: token,
          })
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1'),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['invitation-link', token] });
      if (userId != null) await refreshAppState(queryClient, userId);
    },
  });
}
