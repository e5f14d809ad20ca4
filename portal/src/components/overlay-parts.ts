/**
 * Mantine's menu and popover, fetched as a chunk of their own (lazyParts.ts: overlayParts) at
 * the visitor's first move or the first press of a menu or popover, not with the first page's
 * JavaScript (bench/bundle.ts). Import them only through overlayParts, or inside code that is
 * itself lazy: a static import from the first page's code puts them back.
 */
export { Menu, Popover } from '@mantine/core';
