import type { PopoverDropdownProps, PopoverProps } from '@mantine/core';
import { cloneElement, type ReactElement, type ReactNode } from 'react';
import { overlayParts } from './lazyParts.ts';
import { useOverlayOnFirstPress, type OverlayTargetProps } from './overlayOnFirstPress.ts';

/**
 * A Mantine popover, opened and closed by its owner (`opened`, `onChange`), that exists only
 * from the first time its button is pressed on, as MenuOnFirstUse does for menus: until then the
 * button stands alone, announced as a closed dialog button, and the popover's code is not in the
 * first page's JavaScript. The first press creates the popover around the button, gives the
 * button the focus (so closing returns it there) and asks the owner to open it. The button
 * toggles it from then on: give `target` no onClick of its own.
 */
export function PopoverOnFirstUse({
  target,
  opened,
  onChange,
  dropdownProps,
  children,
  ...popoverProps
}: Omit<PopoverProps, 'opened' | 'defaultOpened' | 'onChange' | 'children'> & {
  target: ReactElement<OverlayTargetProps>;
  opened: boolean;
  onChange: (opened: boolean) => void;
  dropdownProps?: PopoverDropdownProps;
  /** The dropdown's content. */
  children: ReactNode;
}) {
  const { parts, targetRef, standIn } = useOverlayOnFirstPress(overlayParts, 'dialog', () =>
    onChange(true),
  );
  if (!parts) return cloneElement(target, standIn);
  const { Popover } = parts;
  return (
    <Popover {...popoverProps} opened={opened} onChange={onChange}>
      <Popover.Target>
        {cloneElement(target, { ref: targetRef, onClick: () => onChange(!opened) })}
      </Popover.Target>
      <Popover.Dropdown {...dropdownProps}>{children}</Popover.Dropdown>
    </Popover>
  );
}
