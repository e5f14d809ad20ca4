import { createRequire } from 'node:module';
import { StackError } from '../errors.ts';

const require = createRequire(import.meta.url);

/**
 * The Deno binary from the npm package `deno`. Its installer API also covers an install whose
 * postinstall step did not run (it links the platform package's binary then).
 */
export function denoExecutable(): string {
  try {
    const installer = require('deno/install_api.cjs') as { runInstall(): string };
    return installer.runInstall();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new StackError(
      `Deno is missing (the npm package "deno" did not install: ${reason}); run \`npm ci\`.`,
    );
  }
}

/**
 * Deno never downloads a module while the stack runs: the functions' npm packages are the ones
 * `npm ci` put in node_modules (the repository's deno.json sets nodeModulesDir "manual"), and
 * with --cached-only a remote import (jsr:, https:, an npm package missing from node_modules)
 * fails the function's boot, naming the module, instead of depending on the network the first
 * time it runs (a TLS-intercepting proxy or no network answered 503 BOOT_ERROR there).
 */
export const NO_DOWNLOADS = ['--cached-only'];

/**
 * What a Deno process needs from the stack's environment to run (its cache for transpiled code)
 * and what functions' own outgoing requests need (proxies, certificates). Nothing else leaks
 * into functions.
 */
const RUNTIME_VARIABLES = [
  'HOME',
  'PATH',
  'TMPDIR',
  'LANG',
  'TZ',
  'XDG_CACHE_HOME',
  'DENO_DIR',
  // V8 flags for the functions too, e.g. --perf-basic-prof so that `perf` names their JS frames.
  'DENO_V8_FLAGS',
  'DENO_CERT',
  'DENO_TLS_CA_STORE',
  'NPM_CONFIG_REGISTRY',
  'SSL_CERT_FILE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

export function runtimeEnv(): Record<string, string> {
  const env: Record<string, string> = {
    // Plain log lines, and no background request to Deno's release server (unreachable here).
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
  };
  for (const name of RUNTIME_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
