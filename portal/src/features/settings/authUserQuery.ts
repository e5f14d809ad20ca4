import { useQuery } from '@tanstack/react-query';
import { userScope } from '../../data/keys.ts';
import { useSupabase } from '../../lib/servicesContext.ts';

export const authUserKey = (userId: string) =>
  [...userScope(userId), 'settings', 'auth-user'] as const;

/**
 * The user as Auth knows them now (not as the session was issued): an e-mail change waiting
 * for its confirmations shows as `new_email`, and a confirmed one as the new `email`.
 */
export function useAuthUserQuery(userId: string) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: authUserKey(userId),
    queryFn: async () => {
      const { data, error } = await supabase.auth.getUser();
      if (error) throw error;
      return { email: data.user.email ?? '', newEmail: data.user.new_email ?? null };
    },
  });
}
