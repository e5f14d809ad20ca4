import { useQuery, useQueryClient } from '@tanstack/react-query';
import { userScope } from '../../data/keys.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useSupabase } from '../../lib/servicesContext.ts';

export const twoFactorKeys = {
  status: (userId: string) => [...userScope(userId), 'two-factor'] as const,
};

export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused backup codes (app-shell 3: active_two_factor_backup_codes_count). */
  backupCodesLeft: number;
}

/** Whether the signed-in user has 2FA on, and how many backup codes they have left. */
export function useTwoFactorStatusQuery(enabled = true) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: twoFactorKeys.status(userId ?? ''),
    enabled: enabled && userId != null,
    queryFn: async (): Promise<TwoFactorStatus> => {
      // Only users with a factor reach this: the API stays out of the first page's code.
      const { remainingBackupCodes, verifiedTotpFactors } = await import('./twoFactorApi.ts');
      const factors = await verifiedTotpFactors(supabase);
      if (factors.length === 0) return { enabled: false, backupCodesLeft: 0 };
      return { enabled: true, backupCodesLeft: await remainingBackupCodes(supabase) };
    },
  });
}

/** Reload the status after a change (enrolled, codes generated, turned off). */
export function useRefreshTwoFactorStatus() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status(userId ?? '') });
}
