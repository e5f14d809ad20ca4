import { QR_CODE } from '@shortlane/shared/constants.ts';

/**
 * The QR panel's height (the code at its display size, the address and the download buttons),
 * kept by its loading state too, so the dialog opens at its final size.
 */
export const QR_PANEL_HEIGHT = QR_CODE.displaySize + 96;
