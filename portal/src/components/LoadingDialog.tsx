import type { DrawerProps, ModalProps } from '@mantine/core';
import { dialogParts } from './lazyParts.ts';
import { LoadingFrame } from './LoadingFrame.tsx';

type FrameProps<Props> = Omit<Props, 'children'> & {
  /** What is loading, for screen readers. */
  loadingLabel: string;
  minHeight?: number | string;
};

/**
 * A modal's frame with the loading state inside, for a modal whose own code (frame included) is
 * still on its way: the fallback of its Suspense, with the same props as the modal it stands for,
 * so the overlay, title and close button show at once (once the modal's parts are at hand:
 * fetched at the visitor's first move, see lazyParts.ts).
 */
export function LoadingModal({ loadingLabel, minHeight, ...props }: FrameProps<ModalProps>) {
  const parts = dialogParts.useParts(true);
  if (!parts) return null;
  return (
    <parts.Modal {...props}>
      <LoadingFrame label={loadingLabel} minHeight={minHeight} />
    </parts.Modal>
  );
}

/** The same for a drawer. */
export function LoadingDrawer({ loadingLabel, minHeight, ...props }: FrameProps<DrawerProps>) {
  const parts = dialogParts.useParts(true);
  if (!parts) return null;
  return (
    <parts.Drawer {...props}>
      <LoadingFrame label={loadingLabel} minHeight={minHeight} />
    </parts.Drawer>
  );
}
