import { createContext, useContext } from 'react';
import type { RouteName } from './paths.ts';

/** The named route being shown, for pages that serve several (legal, features, sale pages). */
export const CurrentRouteContext = createContext<RouteName | null>(null);

export function useCurrentRouteName(): RouteName {
  const name = useContext(CurrentRouteContext);
  if (name == null) throw new Error('useCurrentRouteName() is only available inside a route.');
  return name;
}
