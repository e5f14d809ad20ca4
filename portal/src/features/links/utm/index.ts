/**
 * The UTM builder (link-creation 4 and 5). The URL rules are shared with the functions, so they
 * live in shared/src/validation/utm.ts: applyUtm adds only non-empty values, URL-encoded,
 * replacing existing utm parameters; stripUtm removes the five (the toggle turned off).
 */
export { applyUtm, readUtm, stripUtm } from '@shortlane/shared/validation/utm.ts';
export { UtmBuilderModal, type UtmBuilderModalProps } from './UtmBuilderModal.tsx';
