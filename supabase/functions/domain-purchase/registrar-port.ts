/**
 * The registrar adapter's calls this function makes (`_shared/registrar`, the registrar
 * contract), and the refusal code of an error it threw.
 */
import {
  type Registrar,
  RegistrarError,
  type RegistrarErrorCode,
} from '../_shared/registrar/registrar.ts';

export type PurchaseRegistrar = Pick<Registrar, 'checkAvailability' | 'register' | 'renew'>;

export function registrarCode(error: unknown): RegistrarErrorCode | null {
  return error instanceof RegistrarError ? error.code : null;
}
