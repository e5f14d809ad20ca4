import { databaseUrl, gatewayUrl, mailboxUrl, type StackConfig } from './config.ts';
import { drainable } from './drain.ts';
import { listen } from './gateway.ts';
import { assertPortFree } from './ports.ts';
import { FunctionCatalog } from './functions/catalog.ts';
import { denoExecutable } from './functions/deno.ts';
import { localFunctionDefaults } from './functions/local-env.ts';
import { FunctionProcesses } from './functions/processes.ts';
import { createFunctionsRouter, serveFunctions, type FunctionsRoute } from './functions/router.ts';
import { watchFunctionSources } from './functions/watcher.ts';

export interface RunningFunctions {
  /** Loopback port that serves /<function-name>/... */
  port: number;
  /** The same routing, in-process: the gateway hands requests to the functions in one hop. */
  route: FunctionsRoute;
  /**
   * Lets the requests in flight finish, then sends every function process SIGTERM and kills
   * those still running at `deadline` (epoch ms; default: `config.stopTimeoutMs` from now).
   */
  stop(deadline?: number): Promise<void>;
}

/** The variables Supabase's runtime gives every function (a functions/.env adds to them). */
export function supabaseFunctionEnv(config: StackConfig): Record<string, string> {
  return {
    SUPABASE_URL: gatewayUrl(config),
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: databaseUrl(config),
    // Not one of Supabase's defaults: a project sets it as a function secret (`supabase secrets
    // set AUTH_JWT_SECRET=…`) for kiosk-impersonate, which signs tokens as Auth does.
    AUTH_JWT_SECRET: config.jwtSecret,
  };
}

/**
 * Serves `config.functionsDir` with real Deno, Supabase-style. Start-up costs nothing per
 * function: each one boots on its first request (see FunctionProcesses).
 */
export async function startFunctions(
  config: StackConfig,
  log: (line: string) => void,
): Promise<RunningFunctions> {
  const deno = denoExecutable();
  const catalog = new FunctionCatalog(config.functionsDir);
  const processes = new FunctionProcesses({
    deno,
    catalog,
    functionEnv: supabaseFunctionEnv(config),
    localDefaults: localFunctionDefaults(gatewayUrl(config), config.dnsPort, mailboxUrl(config)),
    log,
  });
  const route = createFunctionsRouter({ catalog, processes, jwtSecret: config.jwtSecret, log });
  const server = serveFunctions(route);
  const drain = drainable(server);
  await assertPortFree(config.functionsPort, 'edge functions');
  await listen(server, config.functionsPort);
  const unwatch = config.watchFunctions
    ? watchFunctionSources(catalog, processes, log)
    : () => undefined;
  const names = catalog.names();
  log(
    `functions: ${names.length ? names.join(', ') : 'none'} from ${config.functionsDir}` +
      ` (each boots on its first request${config.watchFunctions ? '; reloads on change' : ''})`,
  );
  return {
    port: config.functionsPort,
    route,
    stop: async (deadline = Date.now() + config.stopTimeoutMs) => {
      unwatch();
      await drain(deadline);
      await processes.stopAll(Math.max(0, deadline - Date.now()));
    },
  };
}
