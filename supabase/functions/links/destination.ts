/**
 * URL safety for a new link, before the database is asked: `checkShape` judges the text alone
 * with url-safety.ts (scheme, control characters, size, credentials, internal and metadata
 * addresses in every notation), so hostile URLs are refused with the form's other field errors
 * and never reach create_link. Our own and banned domains are the database's to judge: create_link
 * (app.check_destination, the one rule every path shares) refuses them with the same codes.
 */
import { sql } from '../_shared/sql.ts';
import {
  checkDestination,
  type DestinationCheck,
  type DestinationPolicy,
} from '../_shared/url-safety.ts';

const TEXT_ONLY: DestinationPolicy = { shortDomains: [], isBanned: () => false };

/** The normalised destination, or why its text alone is refused. No I/O. */
export function checkShape(raw: unknown): Promise<DestinationCheck> {
  return checkDestination(raw, TEXT_ONLY);
}

/** Whether staff blocked any of these addresses (kiosk "ips"; app.is_ip_blocked decides). */
export type IpBlockCheck = (addresses: readonly string[]) => Promise<boolean>;

export const isIpBlockedInDatabase: IpBlockCheck = async (addresses) => {
  if (addresses.length === 0) return false;
  const [row] = await sql()<{ blocked: boolean }[]>`
    select exists(
      select 1 from unnest(${addresses as string[]}::inet[]) as address
      where app.is_ip_blocked(address)
    ) as blocked`;
  return row?.blocked ?? false;
};
