import { createContext, useContext } from 'react';

/** Settings screens need beyond the providers: the portal's origin (impersonation opens it). */
export interface KioskConfig {
  portalUrl: string;
}

export const KioskConfigContext = createContext<KioskConfig | null>(null);

export function useKioskConfig(): KioskConfig {
  const config = useContext(KioskConfigContext);
  if (!config) throw new Error('useKioskConfig() needs a <KioskConfigContext> provider above it.');
  return config;
}
