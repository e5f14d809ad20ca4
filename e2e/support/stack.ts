import path from 'node:path';
import { loadConfig, REPO_ROOT, type StackConfig } from '../../supabase/local/src/config.ts';
import { readStackEnv, type StackEnv } from '../../supabase/local/src/stack.ts';
import { TEST_STACK_ENV } from '../../supabase/local/src/test-stack-env.ts';

/**
 * Which local stack the e2e suite drives. `npm test` starts one for every suite and names its
 * folder in SHORTLANE_TEST_STACK_DIR; run alone, the suite starts its own (global-setup.ts) on the
 * test port range, or on the STACK_* ports given, with e-mail links pointing at our dev servers.
 */

export const SHARED_STACK_DIR = process.env.SHORTLANE_TEST_STACK_DIR;

export const appPorts = {
  portal: portFromEnv('E2E_PORTAL_PORT', 5173),
  kiosk: portFromEnv('E2E_KIOSK_PORT', 5174),
};

export const appUrls = {
  portal: `http://localhost:${appPorts.portal}`,
  kiosk: `http://localhost:${appPorts.kiosk}`,
};

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`${name} must be a port number, got "${raw}"`);
  }
  return port;
}

/** The configuration of the stack this suite starts itself. */
export function ownStackConfig(): StackConfig {
  process.env.STACK_GATEWAY_PORT ??= '55321';
  process.env.STACK_DB_PORT ??= '55322';
  process.env.STACK_MAIL_PORT ??= '55324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  for (const [name, value] of Object.entries(TEST_STACK_ENV)) process.env[name] ??= value;
  return loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/e2e-stack'),
    siteUrl: appUrls.portal,
    additionalRedirectUrls: [appUrls.kiosk],
  });
}

export function readSharedStackEnv(dir: string): StackEnv {
  const env = readStackEnv(loadConfig({ stateDir: path.resolve(dir) }));
  if (!env) throw new Error(`SHORTLANE_TEST_STACK_DIR names ${dir}, but no stack runs there.`);
  return env;
}

/**
 * What the dev servers need, known before the stack runs (Playwright starts web servers before
 * the global set-up): the shared stack's env, or the URL and key our own stack will have.
 */
export function browserStackSettings(): { supabaseUrl: string; anonKey: string } {
  if (SHARED_STACK_DIR) {
    const env = readSharedStackEnv(SHARED_STACK_DIR);
    return { supabaseUrl: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY };
  }
  const config = ownStackConfig();
  return { supabaseUrl: `http://127.0.0.1:${config.gatewayPort}`, anonKey: config.anonKey };
}

const STACK_ENV_KEYS = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_JWT_SECRET',
  'DB_URL',
  'MAILBOX_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_BASE',
  'PADDLE_API_KEY',
  'PADDLE_WEBHOOK_SECRET',
  'PADDLE_API_BASE',
  'PADDLE_CLIENT_TOKEN',
  'PADDLE_SCRIPT_URL',
  'DNS_NAME_SERVER',
  'DNS_SANDBOX_API',
  'REGISTRAR_API_URL',
  'REGISTRAR_USERNAME',
  'REGISTRAR_TOKEN',
  'SAML_IDP_METADATA_URL',
] as const satisfies readonly (keyof StackEnv)[];

/** Hands the running stack's env to the test workers (they inherit the runner's environment). */
export function exportStackEnv(env: StackEnv): void {
  for (const key of STACK_ENV_KEYS) process.env[`E2E_${key}`] = env[key];
}

/** The running stack's env, inside a test. */
export function stackEnv(): StackEnv {
  const env = {} as Record<(typeof STACK_ENV_KEYS)[number], string>;
  for (const key of STACK_ENV_KEYS) {
    const value = process.env[`E2E_${key}`];
    if (!value) throw new Error(`E2E_${key} is not set: did the e2e global set-up run?`);
    env[key] = value;
  }
  return env;
}
