/** The mobile menu drawer's frame, shared by the menu and its loading state. */
export const MOBILE_MENU_FRAME = {
  id: 'mobile-menu',
  title: 'Menu',
  position: 'right',
  size: 'xs',
  hiddenFrom: 'lg',
} as const;
