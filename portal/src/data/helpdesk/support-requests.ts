import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { organizationKeys } from '../keys.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/** organization/{org}/helpdesk: the organization's support requests, newest first. */
export interface SupportRequest {
  id: string;
  subject: string;
  message: string;
  state: 'open' | 'answered' | 'closed';
  answer: string | null;
  answeredAt: string | null;
  authorName: string;
  createdAt: string;
}

const supportKey = (userId: string, organizationId: string) =>
  [...organizationKeys.mine(userId), organizationId, 'support-requests'] as const;

const asState = (state: string): SupportRequest['state'] =>
  state === 'answered' || state === 'closed' ? state : 'open';

export function useSupportRequestsQuery(organizationId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: supportKey(userId ?? '', organizationId ?? ''),
    queryFn: async (): Promise<SupportRequest[]> => {
      const rows = unwrap(
        await supabase
          .from('support_requests')
          .select(
            'id, subject, message, state, answer, answered_at, created_at, author:profiles!support_requests_author_id_fkey(name, email)',
          )
          .eq('organization_id', organizationId!)
          .order('created_at', { ascending: false }),
      );
      return rows.map((row) => ({
        id: row.id,
        subject: row.subject,
        message: row.message,
        state: asState(row.state),
        answer: row.answer,
        answeredAt: row.answered_at,
        authorName: row.author?.name || row.author?.email || 'A former member',
        createdAt: row.created_at,
      }));
    },
    enabled: userId != null && organizationId != null,
  });
}

export function useCreateSupportRequestMutation(organizationId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { subject: string; message: string }) =>
      unwrap(
        await supabase
          .from('support_requests')
          .insert({
            organization_id: organizationId,
            author_id: userId!,
            subject: input.subject,
            message: input.message,
          })
          .select('id')
          .single(),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: supportKey(userId ?? '', organizationId) }),
  });
}
