import { Drawer } from '@mantine/core';
import { CreateLinkForm } from '../features/links/create/CreateLinkForm.tsx';
import { PlanLimitModal } from '../features/links/create/PlanLimitModal.tsx';
import { usePlanLimitReached } from '../features/links/create/usePlanLimitReached.ts';
import { CREATE_LABEL } from './nav/navModel.ts';
import { SIDE_PANEL_FRAME, useSidePanel } from './sidePanel.ts';

/**
 * The side panel the Create button opens (link-creation 2: a side popover for creating). At
 * 100% active-alias usage without usable overage the plan-limit modal shows instead (link-creation 4).
 */
export default function SidePanelDrawer() {
  const { opened, close } = useSidePanel();
  const limitReached = usePlanLimitReached();
  if (limitReached) return <PlanLimitModal opened={opened} onClose={close} />;
  return (
    <Drawer {...SIDE_PANEL_FRAME} opened={opened} onClose={close} title={CREATE_LABEL}>
      <CreateLinkForm mode="popover" headingLevel={3} />
    </Drawer>
  );
}
