import { useAuth } from '../auth/AuthContext.ts';
import { useSecondFactorDue } from '../features/two-factor/secondFactorContext.ts';

/**
 * The id of the account the session may act for, or null: for a guest, while the session
 * loads, and while a password-only session still owes its second factor (or it is not known
 * yet). Every account query keys on it, so none fires before the TOTP code is given.
 */
export function useUserId(): string | null {
  const user = useAuth().user;
  const secondFactorDue = useSecondFactorDue();
  return user != null && secondFactorDue === false ? user.id : null;
}
