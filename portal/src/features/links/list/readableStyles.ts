/**
 * Mantine's default description grey falls below WCAG AA contrast on white (axe: serious); the
 * list's inputs use the darker grey the rest of the portal uses for secondary text.
 */
export const READABLE_INPUT_STYLES = {
  description: { color: 'var(--mantine-color-gray-7)' },
} as const;
