import crypto from 'node:crypto';
import type net from 'node:net';
import { databaseUrl, gatewayUrl, mailboxUrl, type StackConfig } from './config.ts';
import { drainable } from './drain.ts';
import { listen, SHORT_DOMAIN_FUNCTION } from './gateway.ts';
import { CORS_HEADERS } from './http.ts';
import { assertPortFree } from './ports.ts';
import { FunctionCatalog } from './functions/catalog.ts';
import { denoExecutable } from './functions/deno.ts';
import { localFunctionDefaults } from './functions/local-env.ts';
import { FunctionProcesses } from './functions/processes.ts';
import { relayConnection } from './functions/relay.ts';
import { createFunctionsRouter, serveFunctions, type FunctionsRoute } from './functions/router.ts';
import { watchFunctionSources } from './functions/watcher.ts';

export interface RunningFunctions {
  /** Loopback port that serves /<function-name>/... */
  port: number;
  /** The same routing, in-process: the gateway hands requests to the functions in one hop. */
  route: FunctionsRoute;
  /**
   * Relays a connection whose first request (`head`, all read so far) is for `name` to that
   * function's process, booting it if needed (functions/relay.ts). False, with nothing sent or
   * read further, when `name` is not relayed, needs a JWT, or cannot take it: the gateway serves
   * the connection then, as any other.
   */
  relay(name: string, client: net.Socket, head: Buffer): Promise<boolean>;
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
  { relayed = [SHORT_DOMAIN_FUNCTION] }: { relayed?: readonly string[] } = {},
): Promise<RunningFunctions> {
  const deno = denoExecutable();
  const catalog = new FunctionCatalog(config.functionsDir);
  const secret = crypto.randomBytes(24).toString('base64url');
  const processes = new FunctionProcesses({
    deno,
    catalog,
    functionEnv: supabaseFunctionEnv(config),
    localDefaults: localFunctionDefaults(gatewayUrl(config), config.dnsPort, mailboxUrl(config)),
    log,
    relay: {
      functions: new Set(relayed),
      secret,
      trustedProxies: config.trustedProxies.join(','),
      responseHeaders: CORS_HEADERS,
    },
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
    relay: async (name, client, head) => {
      if (!relayed.includes(name) || !catalog.exists(name) || catalog.settings(name).verifyJwt)
        return false;
      let socketPath = processes.relaySocketOf(name);
      if (socketPath === undefined) {
        // Booted for this visitor; a failed boot is answered by the gateway (BOOT_ERROR).
        await processes.acquire(name).catch(() => undefined);
        socketPath = processes.relaySocketOf(name);
      }
      return socketPath !== undefined && relayConnection(socketPath, client, head, secret);
    },
    stop: async (deadline = Date.now() + config.stopTimeoutMs) => {
      unwatch();
      await drain(deadline);
      await processes.stopAll(Math.max(0, deadline - Date.now()));
    },
  };
}
