import { SANDBOX_REGISTRAR_TOKEN, SANDBOX_REGISTRAR_USERNAME } from './index.ts';

/**
 * The registrar settings that point the registrar adapter (supabase/functions/_shared/registrar)
 * at this stack's Name.com sandbox: written to .local/stack.env and given to the functions
 * (local-env.ts). Production sets REGISTRAR_USERNAME and REGISTRAR_TOKEN of the Name.com account
 * and leaves REGISTRAR_API_URL unset (https://api.name.com).
 */
export function registrarSandboxEnv(gatewayUrl: string) {
  return {
    REGISTRAR_API_URL: `${gatewayUrl}/sandbox/registrar`,
    REGISTRAR_USERNAME: SANDBOX_REGISTRAR_USERNAME,
    REGISTRAR_TOKEN: SANDBOX_REGISTRAR_TOKEN,
  };
}
