import { lazy } from 'react';
import { LazyOnFirstUse } from '../components/LazyOnFirstUse.tsx';
import { LoadingDrawer } from '../components/LoadingDialog.tsx';
import { CREATE_LABEL } from './nav/navModel.ts';
import { SIDE_PANEL_FRAME, useSidePanel } from './sidePanel.ts';

const SidePanelDrawer = lazy(() => import('./SidePanelDrawer.tsx'));

/** The side panel; its code loads when the Create button first opens it. */
export function SidePanel() {
  const { opened, close } = useSidePanel();
  return (
    <LazyOnFirstUse
      active={opened}
      fallback={
        <LoadingDrawer
          {...SIDE_PANEL_FRAME}
          opened={opened}
          onClose={close}
          title={CREATE_LABEL}
          loadingLabel="Loading the create form"
          minHeight={320}
        />
      }
    >
      <SidePanelDrawer />
    </LazyOnFirstUse>
  );
}
