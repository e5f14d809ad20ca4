import { lazy } from 'react';
import { LazyOnFirstUse } from '../components/LazyOnFirstUse.tsx';
import { useSidePanel } from './sidePanel.ts';

const SidePanelDrawer = lazy(() => import('./SidePanelDrawer.tsx'));

/** The side panel; its code loads when the Create button first opens it. */
export function SidePanel() {
  const { opened } = useSidePanel();
  return (
    <LazyOnFirstUse active={opened}>
      <SidePanelDrawer />
    </LazyOnFirstUse>
  );
}
