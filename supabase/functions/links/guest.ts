/**
 * What a guest (no account, the anon key) must pass before creating a link (link-creation 5, 6):
 *
 * - CCPA: guests whose address locates them in the United States must tick the CCPA box
 *   (`ccpa_accepted: true`). The country comes from the offline GeoLite2 Country database on the
 *   client address (see client-address.ts); it names countries, not states, so every US guest is
 *   asked rather than only Californians: asking too many is harmless, too few is not. An address
 *   with no known country (private, reserved, missing) is not asked: nothing says its region
 *   demands it.
 * - The bot check: a single-use hCaptcha (or sandbox) token, unless the client address is on the
 *   anti-robot whitelist. Every failure gives the spec's one message on anti_robot_token.
 *
 * CCPA is judged first: it needs no provider call, and a refusal then leaves the token unspent.
 */
import { type BotCheck, botCheckError } from '../_shared/bot-check/bot-check.ts';
import { type BotCheckWhitelist, verifyGuest } from '../_shared/bot-check/whitelist.ts';
import { fieldError } from './errors.ts';

/** Countries whose guests must accept the CCPA notice (ISO 3166-1 alpha-2). */
export const CCPA_COUNTRIES: ReadonlySet<string> = new Set(['US']);

/** Laravel's wording for its `accepted` rule, as the form's other messages are. */
export const CCPA_NOT_ACCEPTED = 'The ccpa accepted field must be accepted.';

export interface GuestChecks {
  botCheck: BotCheck;
  whitelist: BotCheckWhitelist;
  /** ISO country code of an address, or null when unknown. */
  countryOf: (ip: string | null) => Promise<string | null>;
}

export interface GuestAttempt {
  /** The client address (client-address.ts), or null when unknown. */
  clientIp: string | null;
  antiRobotToken: string | null;
  ccpaAccepted: boolean;
}

export async function ccpaRequired(checks: GuestChecks, clientIp: string | null) {
  const country = await checks.countryOf(clientIp);
  return country !== null && CCPA_COUNTRIES.has(country);
}

/** Resolves when the guest may go on; otherwise throws the 422 for the field at fault. */
export async function admitGuest(checks: GuestChecks, attempt: GuestAttempt): Promise<void> {
  if (!attempt.ccpaAccepted && (await ccpaRequired(checks, attempt.clientIp)))
    throw fieldError(422, 'ccpa_required', 'ccpa_accepted', CCPA_NOT_ACCEPTED);
  const verdict = await verifyGuest(
    checks.botCheck,
    checks.whitelist,
    attempt.antiRobotToken,
    attempt.clientIp,
  );
  if (!verdict.ok) throw botCheckError();
}
