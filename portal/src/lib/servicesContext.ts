import { createContext, useContext } from 'react';
import type { PortalConfig } from './config.ts';
import type { PortalServices } from './services.ts';
import type { PortalSupabase } from './supabase.ts';

export const ServicesContext = createContext<PortalServices | null>(null);

export function useServices(): PortalServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() needs a <ServicesContext> provider above it.');
  return services;
}

export const useSupabase = (): PortalSupabase => useServices().supabase;
export const useConfig = (): PortalConfig => useServices().config;
export const useDialogs = () => useServices().dialogs;
export const useNotify = () => useServices().notify;
