import { Drawer, Modal, type DrawerProps, type ModalProps } from '@mantine/core';
import { LoadingFrame } from './LoadingFrame.tsx';

type FrameProps<Props> = Omit<Props, 'children'> & {
  /** What is loading, for screen readers. */
  loadingLabel: string;
  minHeight?: number | string;
};

/**
 * A modal's frame with the loading state inside, for a modal whose own code (frame included) is
 * still on its way: the fallback of its Suspense, with the same props as the modal it stands for,
 * so the overlay, title and close button show at once.
 */
export function LoadingModal({ loadingLabel, minHeight, ...props }: FrameProps<ModalProps>) {
  return (
    <Modal {...props}>
      <LoadingFrame label={loadingLabel} minHeight={minHeight} />
    </Modal>
  );
}

/** The same for a drawer. */
export function LoadingDrawer({ loadingLabel, minHeight, ...props }: FrameProps<DrawerProps>) {
  return (
    <Drawer {...props}>
      <LoadingFrame label={loadingLabel} minHeight={minHeight} />
    </Drawer>
  );
}
