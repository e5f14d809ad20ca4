/**
 * The registrar contract the purchase flow codes against (types.ts), and the registrar this
 * deployment uses, from its environment:
 *
 *   REGISTRAR_API_URL    Name.com's Core API v4 (default https://api.name.com; Name.com's test
 *                        account is https://api.dev.name.com); the local stack sets its sandbox,
 *                        which speaks the same wire format
 *   REGISTRAR_USERNAME   the account's user name (Name.com's test account: "<user>-test")
 *   REGISTRAR_TOKEN      its API token
 */
import { createNameComRegistrar } from './namecom.ts';
import { type Registrar, RegistrarError } from './types.ts';

export * from './types.ts';

export const DEFAULT_REGISTRAR_API_URL = 'https://api.name.com';

/** Fails with RegistrarError 'unreachable' when the settings are missing or unusable. */
export function registrarFromEnv(
  env: { get(name: string): string | undefined } = Deno.env,
): Registrar {
  const read = (name: string) => env.get(name)?.trim() || undefined;
  const apiUrl = read('REGISTRAR_API_URL') ?? DEFAULT_REGISTRAR_API_URL;
  const username = read('REGISTRAR_USERNAME');
  const token = read('REGISTRAR_TOKEN');
  if (!username || !token)
    throw new RegistrarError(
      'unreachable',
      'The registrar is not configured: set REGISTRAR_USERNAME and REGISTRAR_TOKEN.',
    );
  let protocol: string;
  try {
    protocol = new URL(apiUrl).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'https:' && protocol !== 'http:')
    throw new RegistrarError(
      'unreachable',
      `REGISTRAR_API_URL must be an http(s) URL, not "${apiUrl}".`,
    );
  return createNameComRegistrar({ apiUrl, username, token });
}
