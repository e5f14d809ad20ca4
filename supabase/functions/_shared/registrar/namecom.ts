/**
 * The registrar on Name.com's Core API v4 (https://www.name.com/api-docs): HTTP Basic auth with
 * the account's username and API token, JSON bodies, and `{ message, details? }` on any non-200
 * answer. Name.com omits fields at their default value (false, 0, "", empty lists), so a missing
 * boolean reads as false here. Everything it answers is checked before use: a registrar is
 * outside input, and a malformed answer fails as `unreachable` rather than buying blind.
 *
 *   POST /v4/domains:checkAvailability   {domainNames}                  → {results}
 *   POST /v4/domains                     {domain, years, purchasePrice?} → {domain, order, totalPaid}
 *   POST /v4/domains/{domainName}:renew  {years, purchasePrice?}        → {domain, order, totalPaid}
 *   GET  /v4/domains/{domainName}                                       → domain
 */
import { z } from 'zod';
import { isValidDomainName } from '../../../../shared/src/branded-domains.ts';
import {
  type DomainAvailability,
  type RegisteredDomain,
  type Registrar,
  RegistrarError,
  type RegistrarOrder,
  type RegisterInput,
  type RenewInput,
} from './types.ts';

export interface NameComOptions {
  /** https://api.name.com in production, https://api.dev.name.com for Name.com's test account. */
  apiUrl: string;
  username: string;
  token: string;
  /** How long one call may take before it counts as unreachable (default 20 s). */
  timeoutMs?: number;
}

/** Name.com checks at most 50 names per call. */
export const AVAILABILITY_BATCH = 50;
export const MAX_YEARS = 10;
const DEFAULT_TIMEOUT_MS = 20_000;

// Name.com omits false, 0 and empty values, hence the defaults.
const price = z.number().nonnegative();
const searchResult = z.object({
  domainName: z.string().min(1),
  purchasable: z.boolean().default(false),
  premium: z.boolean().default(false),
  purchasePrice: price.optional(),
  renewalPrice: price.optional(),
});
const searchResponse = z.object({ results: z.array(searchResult).default([]) });
const domain = z.object({
  domainName: z.string().min(1),
  expireDate: z.iso.datetime({ offset: true }),
  autorenewEnabled: z.boolean().default(false),
  nameservers: z.array(z.string().min(1)).default([]),
});
const orderResponse = z.object({
  domain,
  order: z.number().int().positive(),
  totalPaid: price.default(0),
});
const errorBody = z.object({ message: z.string(), details: z.string().nullish() });

/** Lower case, no trailing dot, an IDN in its punycode (xn--) form, as Name.com names domains. */
export function normalizeDomainName(raw: string): string {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  // Only a bare host goes through the URL parser (for its IDN to punycode step): it would read
  // "a.com/b" or "x@a.com" as the host a.com.
  if (/[/\\?#@:\s[\]]/.test(name)) return name;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return name;
  }
}

function checkedName(raw: unknown): string {
  const name = typeof raw === 'string' ? normalizeDomainName(raw) : '';
  if (!isValidDomainName(name))
    throw new RegistrarError('invalid', `"${String(raw)}" is not a valid domain name.`);
  return name;
}

function checkedYears(years: unknown): number {
  if (typeof years !== 'number' || !Number.isInteger(years) || years < 1 || years > MAX_YEARS)
    throw new RegistrarError('invalid', `years must be a whole number from 1 to ${MAX_YEARS}.`);
  return years;
}

/** Whole cents, as prices are quoted; undefined stays undefined. */
function checkedPrice(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RegistrarError('invalid', 'purchasePrice must be a non-negative amount in USD.');
  return Math.round(value * 100) / 100;
}

function checkedKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key))
    throw new RegistrarError(
      'invalid',
      'idempotencyKey must be 1 to 255 visible ASCII characters.',
    );
  return key;
}

/** Outside text in our messages: one line, bounded. */
const clip = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unexpected shape';
}

type Operation = 'checkAvailability' | 'register' | 'renew' | 'getDomain';

const DOING: Record<Operation, string> = {
  checkAvailability: 'check availability',
  register: 'register',
  renew: 'renew',
  getDomain: 'look up',
};

const UNAVAILABLE =
  /not available|unavailable for registration|already (registered|exists|taken)|is taken/i;

/**
 * Name.com's error answer as a RegistrarError. Its documented statuses: 400 invalid argument
 * (bad input, a required or mismatched purchasePrice, and a name that cannot be registered),
 * 401 bad credentials, 402 payment failed, 403 permission denied, 404 not found, 409 conflict
 * (an idempotency key reused for another request), 415 wrong content type, 422 no valid TLD
 * (availability) or pricing unavailable (create, renew), 429 rate limit, 5xx, 502 registry down.
 */
export function errorFromAnswer(
  status: number,
  body: unknown,
  operation: Operation,
  subject: string,
): RegistrarError {
  const parsed = errorBody.safeParse(body);
  const said = parsed.success
    ? clip(
        parsed.data.details
          ? `${parsed.data.message}: ${parsed.data.details}`
          : parsed.data.message,
      )
    : `HTTP ${status}`;
  const refused = `Name.com refused to ${DOING[operation]} ${subject} (${said})`;
  switch (true) {
    case status === 400:
      return new RegistrarError(UNAVAILABLE.test(said) ? 'unavailable' : 'invalid', refused);
    case status === 401:
      return new RegistrarError(
        'unreachable',
        `Name.com refused our credentials (${said}): check REGISTRAR_USERNAME and REGISTRAR_TOKEN.`,
      );
    case status === 403:
      return new RegistrarError('unreachable', `Name.com denied the request (${said})`);
    case status === 402:
      return new RegistrarError('payment', `Name.com could not charge for ${subject} (${said})`);
    case status === 404:
      return new RegistrarError('not_found', `${subject} is not in our Name.com account (${said})`);
    case status === 409:
      return new RegistrarError(/idempotency/i.test(said) ? 'invalid' : 'unavailable', refused);
    case status === 422 && operation === 'checkAvailability':
      return new RegistrarError('invalid', refused);
    default:
      return new RegistrarError(
        'unreachable',
        `Name.com could not ${DOING[operation]} ${subject} (${said})`,
      );
  }
}

function basicAuthorization(username: string, token: string): string {
  const bytes = new TextEncoder().encode(`${username}:${token}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createNameComRegistrar(options: NameComOptions): Registrar {
  const base = options.apiUrl.replace(/\/+$/, '');
  const authorization = basicAuthorization(options.username, options.token);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /** One call; the parsed JSON of a 200, or null for a 404 when `notFoundIsNull`. */
  async function call(
    operation: Operation,
    subject: string,
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; idempotencyKey?: string; notFoundIsNull?: boolean } = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.idempotencyKey) headers['x-idempotency-key'] = init.idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new RegistrarError(
        'unreachable',
        timedOut
          ? `Name.com did not answer within ${timeoutMs / 1000} s (${DOING[operation]} ${subject}).`
          : `Name.com could not be reached (${DOING[operation]} ${subject}): ${clip(String(error))}`,
      );
    }
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's HTML page): reported below as an unexpected answer.
    }
    if (response.status === 404 && init.notFoundIsNull) return null;
    if (!response.ok) throw errorFromAnswer(response.status, body, operation, subject);
    if (body === null || typeof body !== 'object')
      throw new RegistrarError(
        'unreachable',
        `Name.com answered ${DOING[operation]} ${subject} with a body that is not JSON.`,
      );
    return body;
  }

  function parse<T>(schema: z.ZodType<T>, body: unknown, operation: Operation, subject: string): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new RegistrarError(
        'unreachable',
        `Name.com's answer to ${DOING[operation]} ${subject} does not match its API (${issueText(parsed.error)}).`,
      );
    return parsed.data;
  }

  function registered(
    value: z.infer<typeof domain>,
    expected: string,
    operation: Operation,
  ): RegisteredDomain {
    if (normalizeDomainName(value.domainName) !== expected)
      throw new RegistrarError(
        'unreachable',
        `Name.com answered ${DOING[operation]} ${expected} with another domain (${clip(value.domainName)}).`,
      );
    return {
      domainName: expected,
      expireDate: new Date(value.expireDate).toISOString(),
      autorenewEnabled: value.autorenewEnabled,
      nameservers: value.nameservers.map(normalizeDomainName),
    };
  }

  function order(body: unknown, expected: string, operation: Operation): RegistrarOrder {
    const answer = parse(orderResponse, body, operation, expected);
    return {
      domain: registered(answer.domain, expected, operation),
      order: answer.order,
      totalPaid: answer.totalPaid,
    };
  }

  async function checkBatch(names: string[]): Promise<Map<string, DomainAvailability>> {
    const subject = names.length === 1 ? names[0]! : `${names.length} names`;
    const body = await call('checkAvailability', subject, 'POST', '/v4/domains:checkAvailability', {
      body: { domainNames: names },
    });
    const answer = parse(searchResponse, body, 'checkAvailability', subject);
    const asked = new Set(names);
    const found = new Map<string, DomainAvailability>();
    for (const result of answer.results) {
      const name = normalizeDomainName(result.domainName);
      if (!asked.has(name))
        throw new RegistrarError(
          'unreachable',
          `Name.com answered availability for a name we did not ask (${clip(result.domainName)}).`,
        );
      if (found.has(name)) continue;
      // Without a price a name cannot be sold: such a result counts as not purchasable.
      const purchasable = result.purchasable && result.purchasePrice !== undefined;
      found.set(name, {
        domainName: name,
        purchasable,
        premium: purchasable && result.premium,
        ...(purchasable ? { purchasePrice: result.purchasePrice } : {}),
        ...(purchasable && result.renewalPrice !== undefined
          ? { renewalPrice: result.renewalPrice }
          : {}),
      });
    }
    return found;
  }

  return {
    async checkAvailability(domainNames) {
      if (!Array.isArray(domainNames))
        throw new RegistrarError('invalid', 'domainNames must be a list of domain names.');
      const names = domainNames.map(checkedName);
      const unique = [...new Set(names)];
      const answers = new Map<string, DomainAvailability>();
      for (let start = 0; start < unique.length; start += AVAILABILITY_BATCH) {
        const batch = await checkBatch(unique.slice(start, start + AVAILABILITY_BATCH));
        for (const [name, availability] of batch) answers.set(name, availability);
      }
      // A name Name.com leaves out of its results is one it does not offer.
      return names.map(
        (name) => answers.get(name) ?? { domainName: name, purchasable: false, premium: false },
      );
    },

    async register(input: RegisterInput) {
      const name = checkedName(input.domainName);
      const years = checkedYears(input.years);
      const purchasePrice = checkedPrice(input.purchasePrice);
      const idempotencyKey = checkedKey(input.idempotencyKey);
      if (!Array.isArray(input.nameservers))
        throw new RegistrarError('invalid', 'nameservers must be a list of host names.');
      const nameservers = input.nameservers.map((raw) => {
        const host = typeof raw === 'string' ? normalizeDomainName(raw) : '';
        if (!isValidDomainName(host))
          throw new RegistrarError('invalid', `"${String(raw)}" is not a valid name server.`);
        return host;
      });
      const body = await call('register', name, 'POST', '/v4/domains', {
        idempotencyKey,
        body: {
          // Renewals go through our own subscription: the registrar must not renew on its own.
          domain: {
            domainName: name,
            autorenewEnabled: false,
            ...(nameservers.length > 0 ? { nameservers } : {}),
          },
          years,
          ...(purchasePrice === undefined ? {} : { purchasePrice }),
        },
      });
      return order(body, name, 'register');
    },

    async renew(input: RenewInput) {
      const name = checkedName(input.domainName);
      const years = checkedYears(input.years);
      const purchasePrice = checkedPrice(input.purchasePrice);
      const idempotencyKey = checkedKey(input.idempotencyKey);
      const body = await call('renew', name, 'POST', `/v4/domains/${name}:renew`, {
        idempotencyKey,
        body: { years, ...(purchasePrice === undefined ? {} : { purchasePrice }) },
      });
      return order(body, name, 'renew');
    },

    async getDomain(domainName) {
      const name = checkedName(domainName);
      const body = await call('getDomain', name, 'GET', `/v4/domains/${name}`, {
        notFoundIsNull: true,
      });
      return body === null
        ? null
        : registered(parse(domain, body, 'getDomain', name), name, 'getDomain');
    },
  };
}
