/** The long URL of a short link (link-creation 4 and 5). */
import { ERROR_CODES } from '../errors.ts';

/**
 * An absolute http(s) address with a host and no blanks. Written as a pattern rather than
 * with `URL`, whose type is a DOM/Node global this package does not load; the server makes
 * the finer checks (banned domains, reachability).
 */
const WEB_ADDRESS =
  /^https?:\/\/(?:[^\s/?#@]+@)?(?:[^\s/?#:@[\]]+|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/i;

export function validateUrlRequired(url: string | null | undefined): string | null {
  return url == null || url.trim() === '' ? ERROR_CODES.url_required.message : null;
}

/** Required, and an absolute http(s) address. */
export function validateLongUrl(url: string | null | undefined): string | null {
  const missing = validateUrlRequired(url);
  if (missing != null || url == null) return missing;
  return WEB_ADDRESS.test(url.trim()) ? null : ERROR_CODES.url_invalid.message;
}
