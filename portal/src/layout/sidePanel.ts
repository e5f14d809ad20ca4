import { createContext, useContext } from 'react';

/** The side panel (the Create popover of link-creation 2): open from anywhere in the shell. */
export interface SidePanelControls {
  opened: boolean;
  open: () => void;
  close: () => void;
}

/** The side panel drawer's frame, shared by the drawer and its loading state. */
export const SIDE_PANEL_FRAME = { position: 'right', size: 'md' } as const;

export const SidePanelContext = createContext<SidePanelControls | null>(null);

export function useSidePanel(): SidePanelControls {
  const controls = useContext(SidePanelContext);
  if (!controls) throw new Error('useSidePanel() needs the shell layout above it.');
  return controls;
}
