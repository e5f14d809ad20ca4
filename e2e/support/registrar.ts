import { registrarSandbox } from '../../supabase/tests/support/registrar.ts';
import { stackEnv } from './stack.ts';

export { uniqueDomainName } from '../../supabase/tests/support/registrar.ts';

/**
 * The stack's registrar sandbox (Name.com stand-in) from a spec: mark a name taken, arm a failed
 * payment for the next renewal of a name, read what was registered. See
 * supabase/tests/support/registrar.ts for the calls.
 */
export const registrar = () => registrarSandbox(stackEnv());
