/**
 * One domain's check: the ownership TXT record and the host pointing at us, asked through the
 * configured name server. Deno's resolver asks that server directly (no system cache), so a
 * record set a second ago is seen at once, and production's own resolver is used when
 * DNS_NAME_SERVER is unset.
 */
import {
  type VerificationProblem,
  verificationRecordName,
} from '../../../shared/src/domain-verification.ts';

export interface VerifierConfig {
  /** Where queries go; undefined: the system's resolver. */
  nameServer?: { ipAddr: string; port: number };
  /** The host a customer's CNAME names. */
  cnameTarget: string;
  /** The addresses A/AAAA records may name instead (where no CNAME can be set). */
  addresses: string[];
}

export type CheckOutcome =
  | { passed: true }
  | {
      passed: false;
      problem: VerificationProblem;
    };

export type Lookup = {
  (query: string, type: 'TXT', options?: Deno.ResolveDnsOptions): Promise<string[][]>;
  (
    query: string,
    type: 'A' | 'AAAA' | 'CNAME',
    options?: Deno.ResolveDnsOptions,
  ): Promise<string[]>;
};

const normalizeHost = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** Reads DNS_NAME_SERVER ("host:port", "[v6]:port" or a bare address on port 53). */
export function parseNameServer(raw: string | undefined): VerifierConfig['nameServer'] {
  const value = raw?.trim();
  if (!value) return undefined;
  const match =
    value.match(/^\[([0-9a-f:.]+)\](?::(\d+))?$/i) ??
    value.match(/^([0-9.]+)(?::(\d+))?$/) ??
    value.match(/^([0-9a-f:]+)()$/i);
  const port = Number(match?.[2] || 53);
  if (!match?.[1] || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`DNS_NAME_SERVER must be an address with an optional port, got "${value}"`);
  }
  return { ipAddr: match[1], port };
}

export function verifierConfigFromEnv(env: { get(name: string): string | undefined } = Deno.env) {
  const cnameTarget = env.get('DOMAIN_CNAME_TARGET')?.trim();
  if (!cnameTarget) {
    throw new Error('The environment variable DOMAIN_CNAME_TARGET is not set');
  }
  return {
    nameServer: parseNameServer(env.get('DNS_NAME_SERVER')),
    cnameTarget: normalizeHost(cnameTarget),
    addresses: (env.get('DOMAIN_A_ADDRESSES') ?? '')
      .split(',')
      .map((address) => address.trim().toLowerCase())
      .filter(Boolean),
  } satisfies VerifierConfig;
}

/** NXDOMAIN and "no such record" are answers (nothing there), not failures to ask. */
const isNoRecord = (error: unknown) => error instanceof Deno.errors.NotFound;

export async function checkDomain(
  domain: string,
  token: string,
  config: VerifierConfig,
  lookup: Lookup = Deno.resolveDns,
): Promise<CheckOutcome> {
  const options: Deno.ResolveDnsOptions = config.nameServer
    ? { nameServer: config.nameServer }
    : {};
  const ask = async <T>(query: () => Promise<T[]>): Promise<T[] | 'error'> => {
    try {
      return await query();
    } catch (error) {
      return isNoRecord(error) ? [] : 'error';
    }
  };

  const txt = await ask(() => lookup(verificationRecordName(domain), 'TXT', options));
  if (txt === 'error') return { passed: false, problem: 'dns_error' };
  if (txt.length === 0) return { passed: false, problem: 'txt_missing' };
  // A TXT record may come in several character-strings: they are one text, joined.
  if (!txt.some((strings) => strings.join('').trim() === token)) {
    return { passed: false, problem: 'txt_mismatch' };
  }

  const cname = await ask(() => lookup(domain, 'CNAME', options));
  if (cname !== 'error' && cname.some((target) => normalizeHost(target) === config.cnameTarget)) {
    return { passed: true };
  }
  if (config.addresses.length > 0) {
    const [a, aaaa] = await Promise.all([
      ask(() => lookup(domain, 'A', options)),
      ask(() => lookup(domain, 'AAAA', options)),
    ]);
    if (a === 'error' && aaaa === 'error') {
      return { passed: false, problem: 'dns_error' };
    }
    const found = [...(a === 'error' ? [] : a), ...(aaaa === 'error' ? [] : aaaa)].map((address) =>
      address.toLowerCase(),
    );
    // Every address must be ours: one left at an old host would send some visitors there.
    if (found.length > 0 && found.every((address) => config.addresses.includes(address))) {
      return { passed: true };
    }
  }
  if (cname === 'error') return { passed: false, problem: 'dns_error' };
  return { passed: false, problem: 'host_not_pointing' };
}
