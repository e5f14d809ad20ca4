import { PasswordInput, Text, type PasswordInputProps } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';

export const CAPS_LOCK_ON = 'Caps Lock is on.';

/**
 * A password input with the spec's show/hide toggle (a labelled, focusable button) and a
 * caps-lock indicator (app-shell 5), announced politely to screen readers while typing.
 */
export function PasswordField(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const readCapsLock = (event: KeyboardEvent<HTMLInputElement>) => {
    // Synthetic events from some tests and old browsers lack getModifierState.
    if (typeof event.getModifierState === 'function') {
      setCapsLock(event.getModifierState('CapsLock'));
    }
  };
  return (
    <div>
      <PasswordInput
        {...props}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleFocusable
        visibilityToggleButtonProps={{
          // A toggle button keeps its name; its pressed state says whether the text shows.
          'aria-label': 'Show password',
          'aria-pressed': visible,
        }}
        onKeyDown={(event) => {
          readCapsLock(event);
          props.onKeyDown?.(event);
        }}
        onKeyUp={(event) => {
          readCapsLock(event);
          props.onKeyUp?.(event);
        }}
        onBlur={(event) => {
          setCapsLock(false);
          props.onBlur?.(event);
        }}
      />
      {/* The live region exists before it speaks, so screen readers hear the change. */}
      <Text role="status" size="sm" c="orange.9" mt={4} aria-live="polite">
        {capsLock ? CAPS_LOCK_ON : ''}
      </Text>
    </div>
  );
}
