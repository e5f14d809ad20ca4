import { Center, Loader, VisuallyHidden, type MantineSpacing } from '@mantine/core';

export interface LoadingFrameProps {
  /** What is loading, for screen readers: "Loading the QR code". */
  label: string;
  /**
   * The height the content will take, so the dialog or panel opens at its size and does not
   * jump when the content arrives.
   */
  minHeight?: number | string;
  py?: MantineSpacing;
}

/**
 * The one loading state of a dialog, drawer, popover or page whose code or data is on its way:
 * a spinner in a frame of the content's size, announced as a status. Every lazily loaded
 * dialog shows it at once instead of opening blank.
 */
export function LoadingFrame({ label, minHeight = 160, py }: LoadingFrameProps) {
  return (
    <Center mih={minHeight} py={py} role="status" data-loading-frame="">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
