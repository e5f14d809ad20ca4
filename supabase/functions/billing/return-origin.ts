/**
 * Where a checkout may send the browser back to: the portal's origin, taken from the caller's
 * Origin header only when BILLING_RETURN_ORIGINS allows it (comma-separated origins; a `*` port
 * matches any port, for local stacks whose portal port varies). Anything else is refused, so the
 * function never becomes an open redirect.
 */
export function allowedReturnOrigin(origin: string | null, allowed: string): string | null {
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  for (const entry of allowed
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)) {
    const anyPort = entry.endsWith(':*');
    const pattern = anyPort ? entry.slice(0, -2) : entry;
    if (anyPort ? `${url.protocol}//${url.hostname}` === pattern : url.origin === pattern)
      return url.origin;
  }
  return null;
}
