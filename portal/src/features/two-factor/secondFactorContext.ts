import { createContext, useContext } from 'react';

/**
 * True while the session owes its second factor (password given, TOTP code not yet): the
 * guards then keep the user on login/2FA/*. Null until the session has been read. Provided by
 * SecondFactorProvider.
 */
export const SecondFactorContext = createContext<boolean | null>(false);

export function useSecondFactorDue(): boolean | null {
  return useContext(SecondFactorContext);
}
