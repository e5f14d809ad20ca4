/**
 * Country of a click from its IP address, offline: the `geoip-country` npm package ships
 * MaxMind's GeoLite2 Country data (CC BY-SA 4.0: "This product includes GeoLite2 data created by
 * MaxMind, available from https://www.maxmind.com") in two files of about 7 MB that it reads into
 * memory once. No network at lookup time. New data comes with package updates (weekly).
 *
 * The database loads on first use (about 0.1 s), not at import, so a function that never looks a
 * country up does not pay for it; call `loadCountryDatabase()` at boot to warm it.
 */
import { canonicalIp, isPublicIp, parseIp } from '../ip-address.ts';

interface GeoIpCountry {
  lookup(ip: string): { country: string } | null;
}

let database: Promise<GeoIpCountry> | undefined;

/** Loads the database once per process; later calls share the same load. */
export function loadCountryDatabase(): Promise<GeoIpCountry> {
  database ??= import('geoip-country').then((module) => (module.default ?? module) as GeoIpCountry);
  return database;
}

/**
 * ISO 3166-1 alpha-2 code (upper case), or null when the address is not one, is private or
 * otherwise special (no country), or is not in the database.
 */
export async function countryOf(remoteIp: string | null | undefined): Promise<string | null> {
  const canonical = remoteIp ? canonicalIp(remoteIp) : null;
  const ip = canonical ? parseIp(canonical) : null;
  if (!canonical || !ip || !isPublicIp(ip)) return null;
  const country = (await loadCountryDatabase()).lookup(canonical)?.country;
  return country && /^[A-Z]{2}$/.test(country) ? country : null;
}
