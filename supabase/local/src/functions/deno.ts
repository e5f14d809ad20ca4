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
 * What a Deno process needs from the stack's environment to run and to fetch npm packages
 * (cache location, registry, proxies, certificates). Nothing else leaks into functions.
 */
const RUNTIME_VARIABLES = [
  'HOME',
  'PATH',
  'TMPDIR',
  'LANG',
  'TZ',
  'XDG_CACHE_HOME',
  'DENO_DIR',
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
