import { billingDocumentsFromEnv } from '../_shared/billing/documents.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { mailpitSender } from '../_shared/mail/sender.ts';
import { registrarFromEnv } from '../_shared/registrar/registrar.ts';
import { sql } from '../_shared/sql.ts';
import { type StackEnv, userAuthorization } from '../_shared/testing.ts';
import { parseNameServer, type VerifierConfig } from '../domain-verify/dns.ts';
import { createKioskBillingHandler } from '../kiosk-billing/handler.ts';
import type { DnsProvider } from '../kiosk-dns/provider.ts';
import { SandboxDnsProvider } from '../kiosk-dns/sandbox.ts';
import { createDomainPurchaseHandler } from './handler.ts';
import type { PurchaseRegistrar } from './registrar-port.ts';

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

/** The DNS provider the stack's functions use: the sandbox adapter on the stack's DNS sandbox. */
export function sandboxDnsOf(env: StackEnv): DnsProvider {
  return new SandboxDnsProvider({
    url: dnsSandboxEnvOf(env).DNS_SANDBOX_API,
    key: env.SUPABASE_SERVICE_ROLE_KEY,
  });
}

/**
 * The function wired to the running stack's sandboxes (Stripe, Paddle when given, registrar, DNS,
 * mail catcher), called directly: `call` answers status and JSON body, `work` runs the worker
 * once with the service role, as the stack's cron job does. `registrar` and `dns` are the
 * sandboxes' adapters unless a test puts something in front of them (to act at the moment of a
 * call).
 */
export function purchaseCaller(
  env: StackEnv,
  overlay?: () => OverlayBilling,
  registrar: () => PurchaseRegistrar = () => registrarFromEnv(),
  dns: () => DnsProvider = () => sandboxDnsOf(env),
) {
  const dnsEnv = dnsSandboxEnvOf(env);
  const purchase = createDomainPurchaseHandler({
    db: sql,
    registrar,
    billing: cardBillingFromEnv,
    documents: billingDocumentsFromEnv,
    ...(overlay ? { overlay } : {}),
    dns,
    verifier: () => dnsEnv.verifier,
    mail: () => mailpitSender(env.MAILBOX_URL!, 'Shortlane <noreply@shortlane.test>'),
    returnOrigins: () => 'http://localhost:*',
    serviceRoleKey: () => env.SUPABASE_SERVICE_ROLE_KEY,
  });
  async function call(authorization: string, method: string, path: string, body?: unknown) {
    const response = await purchase(
      new Request(`http://localhost/domain-purchase${path}`, {
        method,
        headers: {
          authorization,
          origin: 'http://localhost:45173',
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    // deno-lint-ignore no-explicit-any -- each step reads its own answer's shape
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
  const work = () => call(`Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`, 'POST', '/process');
  return { call, work };
}

/** A seeded staff member (the kiosk's refunds are theirs). */
const STAFF = '00000000-0000-4000-8000-000000000105';

/** Staff refund a whole order, through the kiosk's billing function as the kiosk calls it. */
export async function refundAsStaff(env: StackEnv, orderId: string) {
  const response = await createKioskBillingHandler()(
    new Request('http://localhost/kiosk-billing', {
      method: 'POST',
      headers: {
        authorization: await userAuthorization(env, STAFF),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ action: 'refund_order', order_id: orderId }),
    }),
  );
  // deno-lint-ignore no-explicit-any -- the kiosk's answer, read field by field
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
