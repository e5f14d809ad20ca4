import type { StackEnv } from '../_shared/testing.ts';
import { parseNameServer, type VerifierConfig } from '../domain-verify/dns.ts';

/**
 * The running stack's DNS sandbox, as its functions are configured (dnsSandboxEnv): the API at
 * the gateway, the name server on the gateway's port + 12, the redirect host on loopback.
 */
export function dnsSandboxEnvOf(env: StackEnv): {
  DNS_SANDBOX_API: string;
  verifier: VerifierConfig;
} {
  const gateway = new URL(env.SUPABASE_URL);
  const nameServer = (env as unknown as Record<string, string | undefined>).DNS_NAME_SERVER;
  return {
    DNS_SANDBOX_API: `${env.SUPABASE_URL}/sandbox/dns`,
    verifier: {
      nameServer: parseNameServer(nameServer ?? `127.0.0.1:${Number(gateway.port) + 12}`),
      cnameTarget: 'redirect.shortlane.localhost',
      addresses: ['127.0.0.1'],
    },
  };
}
