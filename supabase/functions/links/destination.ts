/**
 * URL safety for a new link, in two steps so hostile URLs never reach the database:
 *
 * 1. `checkShape`: everything url-safety.ts judges from the text alone (scheme, control
 *    characters, size, credentials, internal and metadata addresses in every notation).
 * 2. `checkDomains`: our own short domains and banned domains, for the host and each parent
 *    domain (a ban or a short domain covers its subdomains).
 *
 * Step 2 reads public.domains and public.banned_domains directly through the function's own
 * database connection (the owner, so no RLS: guests may not read either table, and the answer
 * must not depend on who asks). One round trip, and each table answers by equality on its unique
 * `domain` index for the handful of candidate names. app.is_domain_banned would answer the same
 * for bans, but with a LIKE over the whole table per call, and a second query for our domains.
 * The create_link RPC checks the exact host again as a backstop.
 */
import { parseIp } from '../_shared/ip-address.ts';
import { sql } from '../_shared/sql.ts';
import {
  checkDestination,
  type DestinationCheck,
  type DestinationPolicy,
  destinationError,
  domainAndParents,
  type SafeDestination,
} from '../_shared/url-safety.ts';

export interface DomainFacts {
  /** The candidates that are short domains of ours. */
  ownDomains: string[];
  /** Whether any candidate is banned. */
  banned: boolean;
}

/** Facts about the destination's host and its parent domains (normalised, most specific first). */
export type DomainLookup = (candidates: readonly string[]) => Promise<DomainFacts>;

const TEXT_ONLY: DestinationPolicy = { shortDomains: [], isBanned: () => false };

/** Step 1: the normalised destination, or why its text alone is refused. No I/O. */
export function checkShape(raw: unknown): Promise<DestinationCheck> {
  return checkDestination(raw, TEXT_ONLY);
}

/** The names a ban or a short domain could be registered under. */
export function hostCandidates(host: string): string[] {
  return parseIp(host) ? [host] : domainAndParents(host);
}

/** Step 2: refuses links to our own short domains and to banned domains (422 on `url`). */
export async function checkDomains(
  destination: SafeDestination,
  lookup: DomainLookup,
): Promise<SafeDestination> {
  const facts = await lookup(hostCandidates(destination.host));
  // The same judgement as step 1 plus the facts, so the refusal codes and their order
  // (own domain before ban) are url-safety's.
  const checked = await checkDestination(destination.url, {
    shortDomains: facts.ownDomains,
    isBanned: () => facts.banned,
  });
  if (!checked.ok) throw destinationError(checked);
  return checked;
}

export const lookupDomainsInDatabase: DomainLookup = async (candidates) => {
  const [row] = await sql()<{ own: string[]; banned: boolean }[]>`
    select
      array(select d.domain::text from public.domains d
            where d.domain = any(${candidates as string[]}::text[])) as own,
      exists(select 1 from public.banned_domains b
             where b.domain = any(${candidates as string[]}::text[])) as banned`;
  return { ownDomains: row?.own ?? [], banned: row?.banned ?? false };
};

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
