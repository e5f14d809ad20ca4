import assert from 'node:assert/strict';
import { CloudflareDnsProvider } from './cloudflare.ts';
import { dnsProviderFromEnv } from './env.ts';
import { SandboxDnsProvider } from './sandbox.ts';

const envOf = (values: Record<string, string>) => ({ get: (name: string) => values[name] });

Deno.test('a local stack gets the sandbox unless told otherwise', () => {
  const choice = dnsProviderFromEnv(envOf({ SUPABASE_URL: 'http://127.0.0.1:54321' }));
  assert.ok(choice.ok && choice.provider instanceof SandboxDnsProvider);
});

Deno.test('a deployed project must choose a provider', () => {
  assert.deepEqual(dnsProviderFromEnv(envOf({ SUPABASE_URL: 'https://abc.supabase.co' })), {
    ok: false,
    problem: 'DNS_PROVIDER is not set',
  });
  assert.deepEqual(dnsProviderFromEnv(envOf({ DNS_PROVIDER: 'route53' })), {
    ok: false,
    problem: 'DNS_PROVIDER "route53" is not cloudflare or sandbox',
  });
});

Deno.test('Cloudflare needs a token and an account', () => {
  assert.deepEqual(
    dnsProviderFromEnv(envOf({ DNS_PROVIDER: 'cloudflare', CLOUDFLARE_API_TOKEN: 't' })),
    {
      ok: false,
      problem: 'CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID must be set',
    },
  );
  const choice = dnsProviderFromEnv(
    envOf({ DNS_PROVIDER: ' Cloudflare ', CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a' }),
  );
  assert.ok(choice.ok && choice.provider instanceof CloudflareDnsProvider);
});
