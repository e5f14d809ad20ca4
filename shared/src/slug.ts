/**
 * The slug rule of public.slug, without zod: the portal's first page (the organization menu's
 * restore form) checks slugs too, and zod would add some 85 kB to the scripts every page loads.
 */

/** Lower-case words joined by dashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 64;

/** A slug suggested from a name ("Growth Team" → "growth-team"). */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}
