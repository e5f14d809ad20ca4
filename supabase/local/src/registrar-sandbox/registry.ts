import fs from 'node:fs';
import path from 'node:path';
import { isValidDomainName } from '../../../../shared/src/branded-domains.ts';
import {
  domainNotAvailable,
  invalidArgument,
  NameComError,
  notFound,
  paymentFailed,
  registryUnavailable,
} from './errors.ts';
import { cents, DEFAULT_TLD_PRICES, registrationTotal, type TldPrice } from './prices.ts';

/**
 * The sandbox registrar's account and the registry behind it: the domains registered in the
 * account, names held by others (taken) or sold at a premium, and failures armed by tests. It
 * decides every answer deterministically; index.ts only speaks HTTP. With a state file it keeps
 * all of this across restarts of the stack, as the database keeps the orders that refer to it.
 */

export const MAX_YEARS = 10;
/** Name.com's account default name servers, for a domain registered without its own. */
export const DEFAULT_NAMESERVERS = ['ns1.name.com', 'ns2.name.com', 'ns3.name.com', 'ns4.name.com'];

export interface SandboxDomain {
  domainName: string;
  createDate: string;
  expireDate: string;
  autorenewEnabled: boolean;
  locked: boolean;
  nameservers: string[];
  renewalPrice: number;
}

export interface PremiumPrice {
  purchasePrice: number;
  renewalPrice?: number;
}

export const FAILURE_OPERATIONS = ['register', 'renew'] as const;
export const FAILURE_ERRORS = ['payment', 'unavailable', 'unreachable'] as const;
export type FailureOperation = (typeof FAILURE_OPERATIONS)[number];
export type FailureError = (typeof FAILURE_ERRORS)[number];

/** A failure the next matching call answers with (once), then forgets. */
export interface ArmedFailure {
  operation: FailureOperation;
  /** Only a call for this name; any name when absent. */
  domainName?: string;
  error: FailureError;
}

export interface SearchResult {
  domainName: string;
  sld: string;
  tld: string;
  purchasable?: true;
  premium?: true;
  purchaseType?: 'registration';
  purchasePrice?: number;
  renewalPrice?: number;
}

export interface OrderResult {
  domain: SandboxDomain;
  order: number;
  totalPaid: number;
}

interface State {
  domains: Record<string, SandboxDomain>;
  taken: string[];
  premium: Record<string, PremiumPrice>;
  failures: ArmedFailure[];
  nextOrder: number;
}

export interface RegistryOptions {
  /** Where the registry is kept between runs (JSON); in memory only when absent. */
  stateFile?: string;
  /** Names registered by someone else from the start. */
  taken?: readonly string[];
  premium?: Readonly<Record<string, PremiumPrice>>;
  prices?: Readonly<Record<string, TldPrice>>;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** Names every sandbox treats as registered elsewhere, and a few premium ones. */
export const DEFAULT_TAKEN = ['example.com', 'example.net', 'example.org', 'google.com'];
export const DEFAULT_PREMIUM: Readonly<Record<string, PremiumPrice>> = {
  'go.link': { purchasePrice: 2450, renewalPrice: 11.99 },
  'short.io': { purchasePrice: 12500, renewalPrice: 59.99 },
  'links.app': { purchasePrice: 1899, renewalPrice: 18.99 },
};

/** A domain name as Name.com keys it (lower case, no trailing dot), or null if it is none. */
export function domainKey(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  return isValidDomainName(name) ? name : null;
}

function addYears(iso: string, years: number): string {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const isPrice = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

export class RegistrarRegistry {
  private readonly state: State;
  private readonly prices: Readonly<Record<string, TldPrice>>;
  private readonly now: () => number;

  constructor(private readonly options: RegistryOptions = {}) {
    this.prices = options.prices ?? DEFAULT_TLD_PRICES;
    this.now = options.now ?? Date.now;
    this.state = this.load() ?? {
      domains: {},
      taken: [...(options.taken ?? DEFAULT_TAKEN)],
      premium: { ...(options.premium ?? DEFAULT_PREMIUM) },
      failures: [],
      nextOrder: 100_001,
    };
  }

  private load(): State | null {
    const file = this.options.stateFile;
    if (!file || !fs.existsSync(file)) return null;
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as State;
    } catch {
      return null; // A damaged file starts an empty registry rather than stopping the stack.
    }
  }

  private save() {
    const file = this.options.stateFile;
    if (!file) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(this.state, null, 2));
    fs.renameSync(temporary, file);
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  /** The TLD the price list knows for `name` (the longest that fits), and the label before it. */
  private split(name: string): { sld: string; tld: string; price?: TldPrice } {
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) {
      const tld = labels.slice(i).join('.');
      const price = this.prices[tld];
      if (price) return { sld: labels.slice(0, i).join('.'), tld, price };
    }
    return { sld: labels.slice(0, -1).join('.'), tld: labels.at(-1) ?? '' };
  }

  /** Registrable here: a TLD on the price list with exactly one label before it. */
  private offered(name: string): { sld: string; tld: string; price?: TldPrice } {
    const split = this.split(name);
    return split.price && !split.sld.includes('.') ? split : { ...split, price: undefined };
  }

  private isFree(name: string): boolean {
    return !this.state.domains[name] && !this.state.taken.includes(name);
  }

  /** The first and the renewal price of a name, premium or not; null when it is not offered. */
  private priceOf(
    name: string,
  ): { premium: boolean; registration: number; renewal: number } | null {
    const { price } = this.offered(name);
    if (!price) return null;
    const premium = this.state.premium[name];
    return premium
      ? {
          premium: true,
          registration: premium.purchasePrice,
          renewal: premium.renewalPrice ?? price.renewal,
        }
      : { premium: false, registration: price.registration, renewal: price.renewal };
  }

  private takeFailure(operation: FailureOperation, name: string): void {
    const index = this.state.failures.findIndex(
      (failure) =>
        failure.operation === operation &&
        (failure.domainName === undefined || failure.domainName === name),
    );
    if (index < 0) return;
    const [failure] = this.state.failures.splice(index, 1);
    this.save();
    if (failure?.error === 'payment') throw paymentFailed();
    if (failure?.error === 'unavailable') throw domainNotAvailable(name);
    throw registryUnavailable();
  }

  private checkedYears(raw: unknown): number {
    const years = raw ?? 1;
    if (typeof years !== 'number' || !Number.isInteger(years) || years < 1 || years > MAX_YEARS)
      throw invalidArgument(`years must be between 1 and ${MAX_YEARS}`);
    return years;
  }

  /** A purchasePrice the caller sent must be the total for the years, to the cent. */
  private checkedPrice(raw: unknown, expected: number, premium: boolean): void {
    if (raw === undefined || raw === null) {
      if (premium)
        throw invalidArgument(
          'Purchase price is required for premium domains in order to complete this request',
        );
      return;
    }
    if (!isPrice(raw)) throw invalidArgument('purchasePrice must be a non-negative number');
    if (cents(raw) !== cents(expected)) throw invalidArgument('Purchase price does not match');
  }

  // ---- The Name.com API ----

  checkAvailability(rawNames: unknown): SearchResult[] {
    if (!Array.isArray(rawNames) || rawNames.length < 1 || rawNames.length > 50)
      throw invalidArgument('domainNames must list 1 to 50 domain names');
    const names = rawNames.map((raw) => {
      const name = domainKey(raw);
      if (!name) throw invalidArgument(`Invalid Domain Name: ${String(raw).slice(0, 253)}`);
      return name;
    });
    if (names.every((name) => !this.offered(name).price))
      throw new NameComError(
        422,
        'Unprocessable Entity',
        'None of the domain names has a TLD that can be registered',
      );
    return names.map((name) => {
      const { sld, tld } = this.offered(name);
      const price = this.priceOf(name);
      if (!price || !this.isFree(name)) return { domainName: name, sld, tld };
      return {
        domainName: name,
        sld,
        tld,
        purchasable: true,
        ...(price.premium ? { premium: true as const } : {}),
        purchaseType: 'registration',
        purchasePrice: price.registration,
        renewalPrice: price.renewal,
      };
    });
  }

  createDomain(body: Record<string, unknown>): OrderResult {
    const domain = body.domain;
    if (typeof domain !== 'object' || domain === null || Array.isArray(domain))
      throw invalidArgument("'domain' cannot be null");
    const fields = domain as Record<string, unknown>;
    if (fields.domainName === undefined) throw invalidArgument("'domainName' cannot be null");
    const name = domainKey(fields.domainName);
    if (!name) throw invalidArgument(`Invalid Domain Name: ${String(fields.domainName)}`);
    const years = this.checkedYears(body.years);
    let nameservers = DEFAULT_NAMESERVERS;
    if (fields.nameservers !== undefined) {
      if (!Array.isArray(fields.nameservers) || fields.nameservers.length > 13)
        throw invalidArgument('nameservers must list at most 13 host names');
      const given = fields.nameservers.map(domainKey);
      if (given.some((host) => host === null))
        throw invalidArgument('nameservers must be host names');
      if (given.length > 0) nameservers = given as string[];
    }
    if (fields.autorenewEnabled !== undefined && typeof fields.autorenewEnabled !== 'boolean')
      throw invalidArgument('autorenewEnabled must be a boolean');

    this.takeFailure('register', name);
    const price = this.priceOf(name);
    if (!price || !this.isFree(name)) throw domainNotAvailable(name);
    const total = registrationTotal(price, years);
    this.checkedPrice(body.purchasePrice, total, price.premium);

    const createDate = this.isoNow();
    const registered: SandboxDomain = {
      domainName: name,
      createDate,
      expireDate: addYears(createDate, years),
      // Name.com turns auto-renewal on unless the order says otherwise.
      autorenewEnabled: fields.autorenewEnabled !== false,
      locked: true,
      nameservers: [...nameservers],
      renewalPrice: price.renewal,
    };
    this.state.domains[name] = registered;
    const order = this.state.nextOrder++;
    this.save();
    return { domain: { ...registered }, order, totalPaid: total };
  }

  renewDomain(rawName: string, body: Record<string, unknown>): OrderResult {
    const name = domainKey(rawName);
    const held = name ? this.state.domains[name] : undefined;
    if (!name || !held) throw notFound();
    const years = this.checkedYears(body.years);
    this.takeFailure('renew', name);
    const premium = this.state.premium[name] !== undefined;
    const total = cents(held.renewalPrice * years);
    this.checkedPrice(body.purchasePrice, total, premium);
    // A registry holds a name at most ten years ahead (e.g. Verisign for .com).
    const expireDate = addYears(held.expireDate, years);
    if (new Date(expireDate).getTime() > new Date(addYears(this.isoNow(), MAX_YEARS)).getTime())
      throw invalidArgument(`A domain cannot be registered more than ${MAX_YEARS} years ahead`);
    held.expireDate = expireDate;
    const order = this.state.nextOrder++;
    this.save();
    return { domain: { ...held }, order, totalPaid: total };
  }

  getDomain(rawName: string): SandboxDomain {
    const name = domainKey(rawName);
    const held = name ? this.state.domains[name] : undefined;
    if (!held) throw notFound();
    return { ...held };
  }

  // ---- The control API (tests, development) ----

  domains(): SandboxDomain[] {
    return Object.values(this.state.domains)
      .map((domain) => ({ ...domain }))
      .sort((a, b) => a.domainName.localeCompare(b.domainName));
  }

  /** Moves a registration's expiry (a renewal test starts near the end of a term). */
  setExpireDate(name: string, expireDate: string): SandboxDomain | null {
    const held = this.state.domains[name];
    if (!held) return null;
    held.expireDate = new Date(expireDate).toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.save();
    return { ...held };
  }

  deleteDomain(name: string): boolean {
    if (!this.state.domains[name]) return false;
    delete this.state.domains[name];
    this.save();
    return true;
  }

  taken(): string[] {
    return [...this.state.taken].sort();
  }

  setTaken(name: string, taken: boolean) {
    this.state.taken = this.state.taken.filter((held) => held !== name);
    if (taken) this.state.taken.push(name);
    this.save();
  }

  premium(): Record<string, PremiumPrice> {
    return { ...this.state.premium };
  }

  setPremium(name: string, price: PremiumPrice | null) {
    if (price) this.state.premium[name] = price;
    else delete this.state.premium[name];
    this.save();
  }

  failures(): ArmedFailure[] {
    return this.state.failures.map((failure) => ({ ...failure }));
  }

  armFailure(failure: ArmedFailure) {
    this.state.failures.push(failure);
    this.save();
  }

  /** Disarms the failures for one name (all of them without a name); how many went. */
  clearFailures(name?: string): number {
    const before = this.state.failures.length;
    this.state.failures = this.state.failures.filter(
      (failure) => name !== undefined && failure.domainName !== name,
    );
    this.save();
    return before - this.state.failures.length;
  }

  tldPrices(): Readonly<Record<string, TldPrice>> {
    return this.prices;
  }
}
