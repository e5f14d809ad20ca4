import { createTheme, em, type MantineBreakpointsValues } from '@mantine/core';
import { BREAKPOINTS } from '@shortlane/shared/constants.ts';

/** The one place the portal's look is defined. */

/**
 * The spec's breakpoints (sm 576, md 768, lg 992, xl 1200 px) in the em units Mantine's media
 * queries use. The spec has no xs; Mantine requires one, so xs starts at 0 and styles given for
 * xs apply at every width.
 */
export const breakpoints: MantineBreakpointsValues = {
  xs: em(0),
  sm: em(BREAKPOINTS.sm),
  md: em(BREAKPOINTS.md),
  lg: em(BREAKPOINTS.lg),
  xl: em(BREAKPOINTS.xl),
};

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  breakpoints,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  // Keyboard users see where focus is; mouse clicks do not leave rings behind.
  focusRing: 'auto',
});
