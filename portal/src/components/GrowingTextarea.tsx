import { Textarea, type TextareaProps } from '@mantine/core';
import type { CSSProperties } from 'react';
import classes from './GrowingTextarea.module.css';

/** Whether the browser sizes a textarea to its text by itself (CSS field-sizing). */
const SIZES_ITSELF =
  typeof CSS !== 'undefined' &&
  typeof CSS.supports === 'function' &&
  CSS.supports('field-sizing', 'content');

type GrowingTextareaProps = Omit<TextareaProps, 'autosize' | 'rows'> & {
  minRows?: number;
  maxRows?: number;
};

/**
 * A textarea that grows with its text. Where the browser can size it itself (field-sizing), no
 * script measures it: Mantine's autosize reads the layout on mount and on every change, a
 * forced reflow of the whole page, which opened the onboarding survey as one long task. Other
 * browsers keep Mantine's autosize.
 */
export function GrowingTextarea({ minRows = 2, maxRows, ...props }: GrowingTextareaProps) {
  if (!SIZES_ITSELF) return <Textarea autosize minRows={minRows} maxRows={maxRows} {...props} />;
  const rows = {
    '--growing-min-rows': minRows,
    ...(maxRows != null && { '--growing-max-rows': maxRows }),
  } as CSSProperties;
  return (
    <Textarea
      rows={minRows}
      style={rows}
      classNames={{ input: classes.growing }}
      {...(maxRows != null && { 'data-max-rows': '' })}
      {...props}
    />
  );
}
