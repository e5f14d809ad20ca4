/** Input descriptions in gray.7: Mantine's dimmed default falls short of 4.5:1 on white. */
export const SLUG_DESCRIPTION_STYLES = {
  description: { color: 'var(--mantine-color-gray-7)' },
} as const;
