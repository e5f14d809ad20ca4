/**
 * Props for a field's description: Mantine's default (dimmed gray) falls short of WCAG AA
 * contrast on white, which axe reports as serious; gray.7 passes.
 */
export const READABLE = { c: 'gray.7' } as const;
