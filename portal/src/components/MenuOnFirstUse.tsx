import { Menu, type MenuProps } from '@mantine/core';
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

/** What the menu sets on its button. */
interface TargetProps {
  onClick?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  ref?: Ref<HTMLElement>;
}

/**
 * A Mantine menu that exists only from the first time its button is pressed on. Until then the
 * button stands alone, announced as a closed menu button as the Menu's target would be: a list
 * of 25 links rendered 25 menus (popover, floating position, transitions…) that nobody had
 * opened, the biggest part of the dashboard's first render. The first press creates the menu
 * around a fresh button, gives that button the focus (so closing the menu returns it there) and
 * opens it.
 *
 * `target(created)` builds the button; `created` says whether the menu exists yet (a loading
 * state, say, can only concern what the menu did).
 */
export function MenuOnFirstUse({
  target,
  children,
  ...menuProps
}: Omit<MenuProps, 'opened' | 'defaultOpened' | 'onChange' | 'children'> & {
  target: (created: boolean) => ReactElement<TargetProps>;
  /** The menu's items (Menu.Item…), the content of its dropdown. */
  children: ReactNode;
}) {
  const [created, setCreated] = useState(false);
  const [opened, setOpened] = useState(false);
  const targetRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!created) return;
    targetRef.current?.focus();
    // Opened after mounting, not mounted open: the dropdown notes what had the focus when it
    // opens (to give it back on close), which must be this button.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- once, on the first press
    setOpened(true);
  }, [created]);

  if (!created) {
    return cloneElement(target(false), {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: () => setCreated(true),
    });
  }
  return (
    <Menu {...menuProps} opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(target(true), { ref: targetRef })}</Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
