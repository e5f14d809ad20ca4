/** Go's net/url encoding, so links and redirect fragments read exactly like GoTrue's. */

/** url.QueryEscape: like encodeURIComponent, but spaces become '+' and !'()* are escaped. */
export function goQueryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** url.Values.Encode: keys sorted, each pair query-escaped. */
export function goEncodeValues(values: Record<string, string>): string {
  return Object.keys(values)
    .sort()
    .map((key) => `${goQueryEscape(key)}=${goQueryEscape(values[key]!)}`)
    .join('&');
}

/** `target` with its fragment replaced (a bare `#` is dropped first, as url.Parse does). */
export function withFragment(target: string, fragment: Record<string, string>): string {
  const base = target.split('#')[0]!;
  return `${base}#${goEncodeValues(fragment)}`;
}

/** `target` with query parameters set, the query re-encoded sorted as Go's Values.Encode does. */
export function withQuery(target: string, values: Record<string, string>): string {
  const [beforeFragment = '', fragment] = target.split(/#(.*)/s);
  const [path = '', query = ''] = beforeFragment.split(/\?(.*)/s);
  const merged: Record<string, string> = Object.fromEntries(new URLSearchParams(query));
  Object.assign(merged, values);
  return `${path}?${goEncodeValues(merged)}${fragment !== undefined ? `#${fragment}` : ''}`;
}
