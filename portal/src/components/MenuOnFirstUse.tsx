import type { Menu, MenuProps } from '@mantine/core';
import { cloneElement, useState, type ReactElement, type ReactNode } from 'react';
import { overlayParts } from './lazyParts.ts';
import { useOverlayOnFirstPress, type OverlayTargetProps } from './overlayOnFirstPress.ts';

/** Mantine's Menu, as the items are built with it (menu.Item, menu.Label, menu.Divider). */
export type MenuParts = typeof Menu;

/**
 * A Mantine menu that exists only from the first time its button is pressed on. Until then the
 * button stands alone, announced as a closed menu button as the Menu's target would be: a list
 * of 25 links rendered 25 menus (popover, floating position, transitions…) that nobody had
 * opened, the biggest part of the dashboard's first render; and the menu's code is not in the
 * first page's JavaScript (overlayParts). The first press creates the menu around a fresh button,
 * gives that button the focus (so closing the menu returns it there) and opens it
 * (useOverlayOnFirstPress).
 *
 * `target(created)` builds the button; `created` says whether the menu exists yet (a loading
 * state, say, can only concern what the menu did). `children(menu)` builds the items.
 */
export function MenuOnFirstUse({
  target,
  children,
  ...menuProps
}: Omit<MenuProps, 'opened' | 'defaultOpened' | 'onChange' | 'children'> & {
  target: (created: boolean) => ReactElement<OverlayTargetProps>;
  /** The menu's items (menu.Item…), the content of its dropdown. */
  children: (menu: MenuParts) => ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  const { parts, targetRef, standIn } = useOverlayOnFirstPress(overlayParts, 'menu', () =>
    setOpened(true),
  );
  if (!parts) return cloneElement(target(false), standIn);
  const { Menu } = parts;
  return (
    <Menu {...menuProps} opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(target(true), { ref: targetRef })}</Menu.Target>
      <Menu.Dropdown>{children(Menu)}</Menu.Dropdown>
    </Menu>
  );
}
