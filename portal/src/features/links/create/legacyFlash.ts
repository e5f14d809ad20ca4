/**
 * The legacy create flash (link-creation 4): the old product's create links arrive on the
 * homepage carrying `url` (and optionally `alias`). The form starts with them, and creates at
 * once when the terms are accepted and the CCPA check is OK. A homepage address with `alias`
 * but no `url` is the created-link highlight (alias, active), not a flash.
 */
export interface LegacyCreatePrefill {
  url: string;
  alias: string;
  autoSubmit: boolean;
}

export function legacyCreateFlash(
  search: URLSearchParams,
  consent: { termsAccepted: boolean; ccpaAccepted: boolean },
): LegacyCreatePrefill | null {
  const url = search.get('url')?.trim() ?? '';
  if (url === '') return null;
  return {
    url,
    alias: search.get('alias')?.trim() ?? '',
    autoSubmit: consent.termsAccepted && consent.ccpaAccepted,
  };
}
