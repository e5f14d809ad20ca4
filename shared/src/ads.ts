/**
 * Ads (app-shell 1; link-creation 2): loaded only for visitors who are not subscribed, while the
 * ad-consent provider (the footer's Privacy Manager) is on, and only with consent: the cookie
 * notice accepted and no privacy opt-out (the tinyStrictPrivate cookie) on record.
 */
export function adsShown(input: {
  /** Configuration: ads and their consent provider are on. */
  adsEnabled: boolean;
  subscribed: boolean;
  cookiesAccepted: boolean;
  /** The privacy opt-out, or null when never chosen. */
  strictPrivate: boolean | null;
}): boolean {
  return (
    input.adsEnabled && !input.subscribed && input.cookiesAccepted && input.strictPrivate !== true
  );
}
