/** Text links in the bar: quiet buttons, narrow enough for the whole bar to fit at 992 px. */
export const LINK_STYLE = { variant: 'subtle', color: 'dark', px: 'xs' } as const;
