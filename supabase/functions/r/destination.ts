/**
 * Where a redirect goes: the link's destination with the visitor's path suffix and query string.
 *
 * Query precedence: the destination's own parameters are kept as they are (same order, same
 * encoding); the visitor's parameters are added after them, except any whose name the destination
 * already has (the link's owner decides its UTM tags, not whoever shares the short URL) and our
 * own `qr` flag (the QR code marks its scans with it). A visitor parameter repeated keeps every
 * repetition. The fragment stays last.
 */

/** Our own query parameters, read by the redirector and never passed on. */
export const OWN_PARAMETERS = new Set(['qr']);

/** Past this, the visitor's additions are dropped rather than sending a URL browsers may refuse. */
export const MAX_LOCATION_LENGTH = 8_192;

function parameterName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function pairsOf(query: string): string[] {
  return query.split('&').filter((pair) => pair !== '');
}

/** The visitor's query pairs worth passing on (raw, as received), in their order. */
export function visitorPairs(search: string): string[] {
  return pairsOf(search.replace(/^\?/, '')).filter(
    (pair) => !OWN_PARAMETERS.has(parameterName(pair)),
  );
}

/**
 * @param destination the link's http(s) URL as stored
 * @param addPath path segments after the alias, percent-encoded as received (may be empty)
 * @param search the visitor's query string (`?a=1&b=2` or empty), percent-encoded as received
 */
export function destinationFor(destination: string, addPath: string, search: string): string {
  // Most visits add nothing: the destination as stored, unless it has an empty query (`?` alone
  // or before the fragment), which the rebuilt location below leaves out.
  if (addPath === '' && (search === '' || search === '?')) {
    const queryAt = destination.indexOf('?');
    const hashAt = destination.indexOf('#');
    const beforeHash = hashAt < 0 || queryAt < hashAt;
    if (queryAt < 0 || !beforeHash || (queryAt + 1 < destination.length && queryAt + 1 !== hashAt))
      return destination;
  }
  const hashAt = destination.indexOf('#');
  const fragment = hashAt >= 0 ? destination.slice(hashAt) : '';
  const beforeFragment = hashAt >= 0 ? destination.slice(0, hashAt) : destination;
  const queryAt = beforeFragment.indexOf('?');
  let base = queryAt >= 0 ? beforeFragment.slice(0, queryAt) : beforeFragment;
  const ownQuery = queryAt >= 0 ? beforeFragment.slice(queryAt + 1) : '';

  if (addPath !== '') base = `${base.replace(/\/+$/, '')}/${addPath}`;

  const ownNames = new Set(pairsOf(ownQuery).map(parameterName));
  const added = visitorPairs(search).filter((pair) => !ownNames.has(parameterName(pair)));
  const withVisitor = [ownQuery, ...added].filter((part) => part !== '').join('&');
  const location = `${base}${withVisitor ? `?${withVisitor}` : ''}${fragment}`;
  if (location.length <= MAX_LOCATION_LENGTH || added.length === 0) return location;
  return `${base}${ownQuery ? `?${ownQuery}` : ''}${fragment}`;
}
