import { useEffect, useEffectEvent, useRef, useState, type Ref, type RefObject } from 'react';
import type { LazyParts } from './lazyParts.ts';

/** What an overlay sets on its button, before and after it exists. */
export interface OverlayTargetProps {
  onClick?: () => void;
  onFocus?: () => void;
  onPointerEnter?: () => void;
  'aria-haspopup'?: 'menu' | 'dialog';
  'aria-expanded'?: boolean;
  'aria-busy'?: boolean;
  ref?: Ref<HTMLElement>;
}

/**
 * An overlay (menu, popover) created the first time its button is pressed, from parts fetched
 * lazily (lazyParts.ts). Until then the button stands alone with `standIn` props: announced as a
 * closed overlay button, the parts fetched when a pointer comes near or it gets the focus, busy
 * once pressed while they are on the way. Once pressed and fetched, `parts` is set: the caller
 * creates the overlay around a fresh button with `targetRef`, which then gets the focus (so that
 * closing returns it there), and `onCreated` opens it, after mounting rather than mounted open:
 * the dropdown notes what had the focus when it opens, which must be this button.
 */
export function useOverlayOnFirstPress<Parts>(
  lazy: LazyParts<Parts>,
  popup: 'menu' | 'dialog',
  onCreated: () => void,
): {
  parts: Parts | undefined;
  targetRef: RefObject<HTMLElement | null>;
  standIn: OverlayTargetProps;
} {
  const [pressed, setPressed] = useState(false);
  const fetched = lazy.useParts(pressed, () => setPressed(false));
  const parts = pressed ? fetched : undefined;
  const targetRef = useRef<HTMLElement>(null);
  const created = useEffectEvent(onCreated);
  const exists = parts !== undefined;

  useEffect(() => {
    if (!exists) return;
    targetRef.current?.focus();
    created();
  }, [exists]);

  const prefetch = () => void lazy.load().catch(() => {});
  return {
    parts,
    targetRef,
    standIn: {
      'aria-haspopup': popup,
      'aria-expanded': false,
      'aria-busy': pressed || undefined,
      onClick: () => setPressed(true),
      onPointerEnter: prefetch,
      onFocus: prefetch,
    },
  };
}
