import { Drawer } from '@mantine/core';
import { CreateFormPlaceholder } from '../components/CreateFormPlaceholder.tsx';
import { CREATE_LABEL } from './nav/navModel.ts';
import { useSidePanel } from './sidePanel.ts';

/** The side panel the Create button opens (link-creation 2: a side popover for creating). */
export default function SidePanelDrawer() {
  const { opened, close } = useSidePanel();
  return (
    <Drawer opened={opened} onClose={close} position="right" size="md" title={CREATE_LABEL}>
      <CreateFormPlaceholder headingLevel={3} />
    </Drawer>
  );
}
