/**
 * "A tracking event is fired after each create attempt if the pixel exists" (link-creation 4).
 * The pixel is the ad platform's page script (`fbq`), present only where the ad-consent
 * provider loaded it; without it nothing is sent.
 */
type Pixel = (command: 'trackCustom', event: string, data: Record<string, unknown>) => void;

export const CREATE_ATTEMPT_EVENT = 'CreateShortLinkAttempt';

export function trackCreateAttempt(
  outcome: 'created' | 'refused',
  mode: 'single' | 'bulk',
  target: { fbq?: unknown } = window as unknown as { fbq?: unknown },
): void {
  if (typeof target.fbq !== 'function') return;
  (target.fbq as Pixel)('trackCustom', CREATE_ATTEMPT_EVENT, { outcome, mode });
}
