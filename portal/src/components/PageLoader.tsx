import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** Shown while a page's code or the session loads. */
export function PageLoader() {
  return (
    <Center mih="60vh" role="status">
      <Loader aria-hidden="true" />
      <VisuallyHidden>Loading…</VisuallyHidden>
    </Center>
  );
}
