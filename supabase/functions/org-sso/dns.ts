/**
 * The proof of an SSO domain claim: TXT `_shortlane-sso.<domain>` holding the claim's token,
 * asked of the configured name server (the stack's DNS sandbox locally; the system's resolver in
 * production, where DNS_NAME_SERVER is unset).
 */
import { parseNameServer, type VerifierConfig } from '../domain-verify/dns.ts';

export const ssoRecordName = (domain: string) => `_shortlane-sso.${domain}`;

export type Lookup = (
  query: string,
  type: 'TXT',
  options?: Deno.ResolveDnsOptions,
) => Promise<string[][]>;

export function nameServerFromEnv(
  env: { get(name: string): string | undefined } = Deno.env,
): VerifierConfig['nameServer'] {
  return parseNameServer(env.get('DNS_NAME_SERVER'));
}

export async function checkSsoDomain(
  domain: string,
  token: string,
  nameServer: VerifierConfig['nameServer'],
  lookup: Lookup = Deno.resolveDns,
): Promise<{ passed: true } | { passed: false; message: string }> {
  const name = ssoRecordName(domain);
  let records: string[][];
  try {
    records = await lookup(name, 'TXT', nameServer ? { nameServer } : {});
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return { passed: false, message: `DNS could not be asked about ${name}; try again.` };
    }
    records = [];
  }
  if (records.length === 0) return { passed: false, message: `No TXT record at ${name} yet.` };
  if (!records.some((strings) => strings.join('').trim() === token)) {
    return { passed: false, message: `The TXT record at ${name} does not hold the token.` };
  }
  return { passed: true };
}
