/**
 * Chooses the DNS provider from the function's environment:
 *
 *   DNS_PROVIDER           cloudflare | sandbox; unset: sandbox on a local stack (SUPABASE_URL on
 *                          a loopback host), otherwise none (a deployed project must choose)
 *   CLOUDFLARE_API_TOKEN   an API token with Zone:Edit (cloudflare)
 *   CLOUDFLARE_ACCOUNT_ID  the account new zones are created in (cloudflare)
 *   CLOUDFLARE_API_URL     the API's base URL (default https://api.cloudflare.com/client/v4)
 *   DNS_SANDBOX_API        the local stack's DNS sandbox (sandbox): zones are created there too
 */
import { CloudflareDnsProvider } from './cloudflare.ts';
import type { DnsProvider } from './provider.ts';
import { SandboxDnsProvider } from './sandbox.ts';

export interface EnvReader {
  get(name: string): string | undefined;
}

export type ProviderChoice = { ok: true; provider: DnsProvider } | { ok: false; problem: string };

function isLocal(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host === '127.0.0.1' ||
      host === '[::1]'
    );
  } catch {
    return false;
  }
}

export function dnsProviderFromEnv(env: EnvReader = Deno.env): ProviderChoice {
  const read = (name: string) => env.get(name)?.trim() || undefined;
  const chosen =
    read('DNS_PROVIDER')?.toLowerCase() ?? (isLocal(read('SUPABASE_URL')) ? 'sandbox' : undefined);
  if (chosen === 'sandbox') {
    const url = read('DNS_SANDBOX_API');
    const key = read('SUPABASE_SERVICE_ROLE_KEY');
    return { ok: true, provider: new SandboxDnsProvider(url && key ? { url, key } : undefined) };
  }
  if (chosen !== 'cloudflare') {
    return {
      ok: false,
      problem: chosen
        ? `DNS_PROVIDER "${chosen}" is not cloudflare or sandbox`
        : 'DNS_PROVIDER is not set',
    };
  }
  const apiToken = read('CLOUDFLARE_API_TOKEN');
  const accountId = read('CLOUDFLARE_ACCOUNT_ID');
  if (!apiToken || !accountId) {
    return { ok: false, problem: 'CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID must be set' };
  }
  return {
    ok: true,
    provider: new CloudflareDnsProvider({
      apiToken,
      accountId,
      apiUrl: read('CLOUDFLARE_API_URL'),
    }),
  };
}
