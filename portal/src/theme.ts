import {
  createTheme,
  em,
  type CSSVariablesResolver,
  type MantineBreakpointsValues,
  type MantineProviderProps,
} from '@mantine/core';
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

const MODAL_DEFAULTS = {
  closeButtonProps: { 'aria-label': 'Close' },
  attributes: { header: { role: 'none' } },
};

export const theme = createTheme({
  // Shade 7 keeps white button labels at 5:1 contrast (WCAG AA asks 4.5:1); hover goes darker.
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  breakpoints,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  // Keyboard users see where focus is; mouse clicks do not leave rings behind.
  focusRing: 'auto',
  components: {
    // Every modal and drawer: its close icon needs a name to be announced, and its <header>
    // is no page banner (a second banner landmark would confuse screen-reader navigation).
    // Plain objects, not Modal.extend(): that would load the modals with the first page.
    Modal: { defaultProps: MODAL_DEFAULTS },
    Drawer: { defaultProps: MODAL_DEFAULTS },
  },
});

/**
 * Mantine's default error red (shade 6) is 3.3:1 on white; shade 9 reads at 5.5:1. Its dimmed
 * text (inputs' descriptions, `c="dimmed"`) is gray 6, also 3.3:1; gray 7 reads at 8:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});

/** Everything MantineProvider needs from here: `<MantineProvider {...themeProps}>`. */
export const themeProps = {
  theme,
  cssVariablesResolver,
} satisfies Partial<MantineProviderProps>;
