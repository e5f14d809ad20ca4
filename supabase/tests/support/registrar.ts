/**
 * The registrar sandbox's control API (supabase/local/src/registrar-sandbox/index.ts), for stack
 * tests and the e2e (e2e/support/registrar.ts): set the scene a purchase or a renewal meets at
 * the registrar, and read what it did. Needs only the stack's REGISTRAR_* settings and fetch: no
 * vitest and no Node API, so the Deno tests of the registrar client use it too.
 *
 * Tests run side by side on one stack: give each its own names (uniqueDomainName) and arm
 * failures for a name, not for any name.
 */

export interface RegistrarSandboxEnv {
  REGISTRAR_API_URL: string;
  REGISTRAR_USERNAME: string;
  REGISTRAR_TOKEN: string;
}

export interface SandboxRegisteredDomain {
  domainName: string;
  createDate: string;
  expireDate: string;
  autorenewEnabled: boolean;
  locked: boolean;
  nameservers: string[];
  renewalPrice: number;
}

export interface RegistrarFailure {
  operation: 'register' | 'renew';
  /** Only a call for this name fails; any name when absent (avoid it beside other tests). */
  domainName?: string;
  /** 402 Insufficient Funds, 400 Domain is not available, 502 Registry Connection Unavailable. */
  error: 'payment' | 'unavailable' | 'unreachable';
}

/** A name no other test uses, with a TLD the sandbox sells. */
export function uniqueDomainName(tld = 'com', prefix = 't'): string {
  return `${prefix}${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}.${tld}`;
}

/** The sandbox's credentials are ASCII, so btoa (in Node and in Deno alike) encodes them. */
export function registrarBasicAuth(env: RegistrarSandboxEnv): string {
  return `Basic ${btoa(`${env.REGISTRAR_USERNAME}:${env.REGISTRAR_TOKEN}`)}`;
}

export function registrarSandbox(env: RegistrarSandboxEnv) {
  const base = `${env.REGISTRAR_API_URL.replace(/\/+$/, '')}/control`;
  const authorization = registrarBasicAuth(env);

  async function call(
    method: string,
    path: string,
    body?: unknown,
    expected: number[] = [200],
  ): Promise<unknown> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status))
      throw new Error(`registrar sandbox ${method} ${path}: ${response.status} ${text}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  }

  const name = (domainName: string) => encodeURIComponent(domainName);

  return {
    /** The domains registered in the sandbox's account. */
    async domains(): Promise<SandboxRegisteredDomain[]> {
      return ((await call('GET', '/domains')) as { domains: SandboxRegisteredDomain[] }).domains;
    },
    /** One registered domain, or null when the sandbox has not registered it. */
    async domain(domainName: string): Promise<SandboxRegisteredDomain | null> {
      const body = (await call('GET', `/domains/${name(domainName)}`, undefined, [200, 404])) as
        SandboxRegisteredDomain | { message: string };
      return 'domainName' in body ? body : null;
    },
    /** Moves a registration's expiry, e.g. to just before a renewal is due. */
    async setExpireDate(domainName: string, expireDate: Date | string) {
      const iso = typeof expireDate === 'string' ? expireDate : expireDate.toISOString();
      return (await call('PATCH', `/domains/${name(domainName)}`, {
        expireDate: iso,
      })) as SandboxRegisteredDomain;
    },
    async deleteDomain(domainName: string) {
      await call('DELETE', `/domains/${name(domainName)}`, undefined, [204, 404]);
    },
    /** Someone else holds the name: availability says so and registering it fails. */
    async markTaken(domainName: string) {
      await call('PUT', `/taken/${name(domainName)}`, undefined, [204]);
    },
    async markFree(domainName: string) {
      await call('DELETE', `/taken/${name(domainName)}`, undefined, [204]);
    },
    async setPremium(domainName: string, price: { purchasePrice: number; renewalPrice?: number }) {
      await call('PUT', `/premium/${name(domainName)}`, price, [204]);
    },
    async clearPremium(domainName: string) {
      await call('DELETE', `/premium/${name(domainName)}`, undefined, [204]);
    },
    /** The next matching register or renew fails so, once. */
    async failNext(failure: RegistrarFailure) {
      await call('POST', '/failures', failure, [201]);
    },
    async failures(): Promise<RegistrarFailure[]> {
      return ((await call('GET', '/failures')) as { failures: RegistrarFailure[] }).failures;
    },
    /** Disarms the failures armed for a name (every failure without one). */
    async clearFailures(domainName?: string) {
      const query = domainName ? `?domainName=${name(domainName)}` : '';
      await call('DELETE', `/failures${query}`);
    },
    async prices(): Promise<Record<string, { registration: number; renewal: number }>> {
      return (
        (await call('GET', '/prices')) as {
          prices: Record<string, { registration: number; renewal: number }>;
        }
      ).prices;
    },
  };
}

export type RegistrarSandboxControl = ReturnType<typeof registrarSandbox>;
