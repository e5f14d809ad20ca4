/**
 * Mantine's modal and drawer, with the scroll area, focus handling and scroll lock under them,
 * fetched as a chunk of their own (lazyParts.ts: dialogParts) at the visitor's first move or
 * when a dialog first opens, not with the first page's JavaScript (bench/bundle.ts). Import them
 * only through dialogParts, or inside code that is itself lazy: a static import from the first
 * page's code puts them back.
 */
export { Drawer, Modal } from '@mantine/core';
