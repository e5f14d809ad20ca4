/**
 * Cloudflare's zone API (v4): bearer-token auth, answers wrapped in
 * { success, errors: [{ code, message }], messages, result, result_info }.
 *
 *   POST   /zones          { name, account: { id }, type: "full" }  → result: zone
 *   GET    /zones/{id}                                              → result: zone (404 if gone)
 *   GET    /zones?name={name}&account.id={account}                  → result: [zone] or []
 *   DELETE /zones/{id}                                              → result: { id }
 *   POST   /zones/{id}/dns_records { type, name, content, ttl }     → result: record
 *
 * Zone status "initializing" and "pending" are pending to us; "active" and "moved" map as named.
 * A POST /zones for a name the account already has is answered 400 with error code 1061.
 */
import {
  type DnsProvider,
  DnsProviderError,
  type DnsRecord,
  type DnsZone,
  ZONE_EXISTS,
  type ZoneStatus,
} from './provider.ts';

export const CLOUDFLARE_API_URL = 'https://api.cloudflare.com/client/v4';
/** POST /zones for a name the account already has: "<name> already exists". */
const ALREADY_EXISTS = 1061;
const TIMEOUT_MS = 10_000;

export interface CloudflareOptions {
  apiToken: string;
  accountId: string;
  apiUrl?: string;
  fetch?: typeof fetch;
}

interface Envelope {
  success?: unknown;
  errors?: unknown;
  result?: unknown;
}

function zoneStatus(status: unknown): ZoneStatus {
  if (status === 'active' || status === 'moved') return status;
  return 'pending';
}

function readZone(value: unknown): DnsZone {
  const zone = value as Record<string, unknown> | null;
  if (
    typeof zone !== 'object' ||
    zone === null ||
    typeof zone.id !== 'string' ||
    typeof zone.name !== 'string'
  ) {
    throw new DnsProviderError('Cloudflare answered with an unreadable zone', 502);
  }
  const nameServers = Array.isArray(zone.name_servers)
    ? zone.name_servers.filter((ns): ns is string => typeof ns === 'string')
    : [];
  return { id: zone.id, name: zone.name, status: zoneStatus(zone.status), nameServers };
}

function errorsOf(envelope: Envelope): { codes: number[]; text: string } {
  const errors = Array.isArray(envelope.errors) ? envelope.errors : [];
  const codes: number[] = [];
  const messages: string[] = [];
  for (const error of errors) {
    const { code, message } = (error ?? {}) as Record<string, unknown>;
    if (typeof code === 'number') codes.push(code);
    if (typeof message === 'string') messages.push(message);
  }
  return { codes, text: messages.join('; ') };
}

export class CloudflareDnsProvider implements DnsProvider {
  readonly name = 'cloudflare';
  readonly #options: Required<Omit<CloudflareOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: CloudflareOptions) {
    this.#options = {
      apiToken: options.apiToken,
      accountId: options.accountId,
      apiUrl: (options.apiUrl ?? CLOUDFLARE_API_URL).replace(/\/+$/, ''),
      fetch: options.fetch ?? fetch,
    };
  }

  async #call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; envelope: Envelope }> {
    let response: Response;
    try {
      response = await this.#options.fetch(`${this.#options.apiUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.#options.apiToken}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new DnsProviderError(
        `Cloudflare could not be reached: ${(error as Error).message}`,
        502,
      );
    }
    let envelope: Envelope;
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      throw new DnsProviderError(`Cloudflare answered ${response.status} without JSON`, 502);
    }
    if (typeof envelope !== 'object' || envelope === null) {
      throw new DnsProviderError(`Cloudflare answered ${response.status} without an envelope`, 502);
    }
    return { status: response.status, envelope };
  }

  #refusal(status: number, envelope: Envelope): DnsProviderError {
    const { codes, text } = errorsOf(envelope);
    // Their 4xx are ours to show (bad name, no permission); 5xx are theirs. A zone that exists
    // is told apart (they answer it with a plain 400), as the port promises.
    const ours = codes.includes(ALREADY_EXISTS)
      ? ZONE_EXISTS
      : status >= 400 && status < 500
        ? 422
        : 502;
    return new DnsProviderError(`Cloudflare refused: ${text || `HTTP ${status}`}`, ours, codes);
  }

  async createZone(name: string): Promise<DnsZone> {
    const { status, envelope } = await this.#call('POST', '/zones', {
      name,
      account: { id: this.#options.accountId },
      type: 'full',
    });
    if (envelope.success !== true) throw this.#refusal(status, envelope);
    return readZone(envelope.result);
  }

  async getZone(id: string): Promise<DnsZone | null> {
    const { status, envelope } = await this.#call('GET', `/zones/${encodeURIComponent(id)}`);
    if (status === 404) return null;
    if (envelope.success !== true) throw this.#refusal(status, envelope);
    return readZone(envelope.result);
  }

  async findZone(name: string): Promise<DnsZone | null> {
    const query = new URLSearchParams({ name, 'account.id': this.#options.accountId });
    const { status, envelope } = await this.#call('GET', `/zones?${query}`);
    if (envelope.success !== true) throw this.#refusal(status, envelope);
    if (!Array.isArray(envelope.result)) {
      throw new DnsProviderError('Cloudflare answered with an unreadable zone list', 502);
    }
    // Their name filter is exact already; the name is compared all the same, so a change of
    // theirs (a prefix match) could never hand us another name's zone.
    const zone = envelope.result.map(readZone).find((zone) => zone.name === name);
    return zone ?? null;
  }

  async deleteZone(id: string): Promise<void> {
    const { status, envelope } = await this.#call('DELETE', `/zones/${encodeURIComponent(id)}`);
    if (status === 404) return;
    if (envelope.success !== true) throw this.#refusal(status, envelope);
  }

  async putRecord(zone: DnsZone, record: DnsRecord): Promise<void> {
    const { status, envelope } = await this.#call(
      'POST',
      `/zones/${encodeURIComponent(zone.id)}/dns_records`,
      // ttl 1 is Cloudflare's "automatic".
      { type: record.type, name: record.name, content: record.value, ttl: 1 },
    );
    if (envelope.success !== true) throw this.#refusal(status, envelope);
  }
}
