/**
 * What this function needs of the registrar adapter (`_shared/registrar/registrar.ts`, the
 * registrar contract): the same shapes, named here so the function's logic and its tests depend
 * on these calls only.
 */
export interface Availability {
  domainName: string;
  purchasable: boolean;
  premium: boolean;
}

export interface Registration {
  domain: { domainName: string; expireDate: string };
}

export interface PurchaseRegistrar {
  checkAvailability(domainNames: string[]): Promise<Availability[]>;
  register(input: {
    domainName: string;
    years: number;
    nameservers: string[];
  }): Promise<Registration>;
  renew(input: { domainName: string; years: number }): Promise<Registration>;
}

/** The registrar adapter's refusal codes (RegistrarError.code). */
export type RegistrarCode = 'unavailable' | 'payment' | 'invalid' | 'not_found' | 'unreachable';

/** The code of a RegistrarError (read structurally, so tests may throw their own). */
export function registrarCode(error: unknown): RegistrarCode | null {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'unavailable' ||
    code === 'payment' ||
    code === 'invalid' ||
    code === 'not_found' ||
    code === 'unreachable'
    ? code
    : null;
}
