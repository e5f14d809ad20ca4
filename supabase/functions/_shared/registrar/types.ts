/**
 * What the purchase flow needs from a domain registrar, whichever one sits behind it: whether
 * names can be bought and at what price, registering one, renewing it, and reading it back.
 * Prices are the registrar's own, in USD, as it answers them (Name.com's purchasePrice and
 * renewalPrice); our selling price (TLD price plus overprice) is the purchase flow's business.
 */

export interface DomainAvailability {
  domainName: string;
  purchasable: boolean;
  premium: boolean;
  /** The registrar's price in USD for the first year (premium names: the premium price). */
  purchasePrice?: number;
  /** The registrar's price in USD for each further year. */
  renewalPrice?: number;
}

export interface RegisteredDomain {
  domainName: string;
  /** ISO 8601, UTC. */
  expireDate: string;
  autorenewEnabled: boolean;
  nameservers: string[];
}

export interface RegistrarOrder {
  domain: RegisteredDomain;
  /** The registrar's order number. */
  order: number;
  /** What the registrar charged, in USD. */
  totalPaid: number;
}

export interface RegisterInput {
  domainName: string;
  years: number;
  /**
   * The total the registrar asked for these years (checkAvailability's prices); required for
   * premium names. A registrar whose price has changed since refuses the order ('invalid').
   */
  purchasePrice?: number;
  nameservers: string[];
  /**
   * Makes a retry safe: the registrar answers a repeated key with the first order instead of
   * charging again (Name.com's X-Idempotency-Key). The purchase flow passes its order's id.
   */
  idempotencyKey?: string;
}

export interface RenewInput {
  domainName: string;
  years: number;
  /** The total renewal price for these years; required for premium names. */
  purchasePrice?: number;
  /** As for register: a repeated key renews once. */
  idempotencyKey?: string;
}

export interface Registrar {
  /** One answer per name asked, in the order asked. Names that are not valid are refused. */
  checkAvailability(domainNames: string[]): Promise<DomainAvailability[]>;
  register(input: RegisterInput): Promise<RegistrarOrder>;
  renew(input: RenewInput): Promise<RegistrarOrder>;
  /** The domain as the registrar holds it in our account, or null when it is not ours. */
  getDomain(domainName: string): Promise<RegisteredDomain | null>;
}

/**
 * Why a registrar call failed, as the purchase flow acts on it:
 * - unavailable: the name cannot be registered (taken, reserved, not offered);
 * - payment: the registrar could not charge our account (insufficient funds, a declined card);
 * - invalid: the request itself is wrong (a bad name, years out of range, a stale price);
 * - not_found: the domain is not in our account (renew of a name we do not hold);
 * - unreachable: no usable answer (network, timeout, 5xx, rate limit, refused credentials, an
 *   answer that does not match the API): the call may be retried later.
 */
export type RegistrarErrorCode =
  'unavailable' | 'payment' | 'invalid' | 'not_found' | 'unreachable';

export class RegistrarError extends Error {
  constructor(
    readonly code: RegistrarErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RegistrarError';
  }
}
