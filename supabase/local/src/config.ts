import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowedHosts } from './net/hosts.ts';

/**
 * Everything the local stack needs to know about where it runs. Defaults are Supabase CLI's
 * local defaults so that one `.env` works against `supabase start` too; every port and path can
 * be overridden through the environment (the test runner starts a second stack beside a dev one).
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Supabase's well-known local JWT secret and the keys signed with it (public, not secrets). */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export interface StackConfig {
  /** Folder holding this stack's state: database files, storage bytes, pid and env files. */
  stateDir: string;
  gatewayPort: number;
  dbPort: number;
  mailPort: number;
  /** Internal ports, bound to loopback only. */
  postgrestPort: number;
  functionsPort: number;
  /**
   * The DNS sandbox's name server, UDP and TCP on loopback (STACK_DNS_PORT, default
   * gateway + 12): the functions resolve customer domains through it.
   */
  dnsPort: number;
  /**
   * PostgREST's admin server (readiness), STACK_POSTGREST_ADMIN_PORT, default gateway + 13: every
   * internal port sits within gateway + 10…19, so stacks whose gateways are 20 apart never meet.
   */
  postgrestAdminPort: number;
  /** An external Postgres to use instead of the embedded one. */
  externalDatabaseUrl: string | undefined;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Access-token lifetime in seconds (GoTrue's JWT_EXP). */
  jwtExpiry: number;
  /** Where e-mail links land: the portal. */
  siteUrl: string;
  additionalRedirectUrls: string[];
  /** Extra schemas PostgREST exposes besides public (e.g. test fixtures). */
  extraSchemas: string[];
  /** Watch function sources and reload them (dev); off for tests and benchmarks. */
  watchFunctions: boolean;
  /** The edge functions served, one folder each; its parent folder holds their config.toml. */
  functionsDir: string;
  /** Load supabase/seed.sql into a fresh database. */
  seed: boolean;
  /** Hosts besides loopback that pg_net's stand-in may send to (net/hosts.ts). */
  netAllowedHosts: string[];
  /**
   * Addresses and CIDR ranges of proxies in front of the gateway whose X-Forwarded-For it
   * believes (STACK_TRUSTED_PROXIES; none by default: the socket's peer is the client).
   */
  trustedProxies: string[];
  /**
   * How long a stop waits for the requests in flight and for the functions to write what they
   * hold (the `r` function's buffered clicks) before it cuts and kills what is left.
   */
  stopTimeoutMs: number;
  /**
   * Delays (ms) between the Stripe sandbox's webhook delivery attempts
   * (STACK_STRIPE_WEBHOOK_RETRY_MS, comma-separated); test stacks use short ones.
   */
  stripeWebhookRetryDelaysMs?: number[];
  /** The same for the Paddle sandbox (STACK_PADDLE_WEBHOOK_RETRY_MS). */
  paddleWebhookRetryDelaysMs?: number[];
  /**
   * How long a Stripe sandbox checkout stays open when the request sets no `expires_at`
   * (STACK_STRIPE_CHECKOUT_EXPIRY_SECONDS; Stripe's 24 hours by default): tests of an
   * abandoned checkout use seconds.
   */
  stripeCheckoutExpirySeconds?: number;
  /**
   * How long the Paddle sandbox keeps a refund adjustment pending before approving it
   * (STACK_PADDLE_REFUND_APPROVAL_MS, 3 s by default; Paddle's own sandbox takes minutes).
   */
  paddleRefundApprovalMs?: number;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    throw new Error(`${name} must be a port number, got "${raw}"`);
  }
  return value;
}

function millisecondsFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number of milliseconds, got "${raw}"`);
  }
  return value;
}

function millisecondListFromEnv(name: string): number[] | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((entry) => Number(entry.trim()));
  if (values.some((value) => !Number.isInteger(value) || value < 0)) {
    throw new Error(`${name} must be comma-separated whole milliseconds, got "${raw}"`);
  }
  return values;
}

/** The default of STACK_STOP_TIMEOUT_MS. */
const DEFAULT_STOP_TIMEOUT_MS = 10_000;

export function loadConfig(overrides: Partial<StackConfig> = {}): StackConfig {
  const stateDir = path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local');
  const gatewayPort = intFromEnv('STACK_GATEWAY_PORT', 54321);
  return {
    stateDir,
    gatewayPort,
    dbPort: intFromEnv('STACK_DB_PORT', 54322),
    mailPort: intFromEnv('STACK_MAIL_PORT', 54324),
    postgrestPort: intFromEnv('STACK_POSTGREST_PORT', gatewayPort + 10),
    functionsPort: intFromEnv('STACK_FUNCTIONS_PORT', gatewayPort + 11),
    dnsPort: intFromEnv('STACK_DNS_PORT', gatewayPort + 12),
    postgrestAdminPort: intFromEnv('STACK_POSTGREST_ADMIN_PORT', gatewayPort + 13),
    externalDatabaseUrl: process.env.DATABASE_URL || undefined,
    jwtSecret: LOCAL_JWT_SECRET,
    anonKey: LOCAL_ANON_KEY,
    serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
    jwtExpiry: intFromEnv('STACK_JWT_EXPIRY', 3600),
    siteUrl: process.env.STACK_SITE_URL ?? 'http://localhost:5173',
    additionalRedirectUrls: (process.env.STACK_REDIRECT_URLS ?? 'http://localhost:5174')
      .split(',')
      .filter(Boolean),
    extraSchemas: (process.env.STACK_EXTRA_SCHEMAS ?? '').split(',').filter(Boolean),
    watchFunctions: process.env.STACK_WATCH_FUNCTIONS !== 'false',
    functionsDir: path.resolve(REPO_ROOT, process.env.STACK_FUNCTIONS_DIR ?? 'supabase/functions'),
    seed: process.env.STACK_SEED !== 'false',
    netAllowedHosts: parseAllowedHosts(process.env.STACK_NET_ALLOWED_HOSTS),

    trustedProxies: (process.env.STACK_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    stopTimeoutMs: millisecondsFromEnv('STACK_STOP_TIMEOUT_MS', DEFAULT_STOP_TIMEOUT_MS),
    stripeWebhookRetryDelaysMs: millisecondListFromEnv('STACK_STRIPE_WEBHOOK_RETRY_MS'),
    paddleWebhookRetryDelaysMs: millisecondListFromEnv('STACK_PADDLE_WEBHOOK_RETRY_MS'),
    stripeCheckoutExpirySeconds: intFromEnv('STACK_STRIPE_CHECKOUT_EXPIRY_SECONDS', 24 * 3600),
    paddleRefundApprovalMs: millisecondsFromEnv('STACK_PADDLE_REFUND_APPROVAL_MS', 3000),
    ...overrides,
  };
}

export function databaseUrl(config: StackConfig, user = 'postgres'): string {
  if (config.externalDatabaseUrl) {
    if (user === 'postgres') return config.externalDatabaseUrl;
    const url = new URL(config.externalDatabaseUrl);
    url.username = user;
    url.password = 'postgres';
    return url.toString();
  }
  return `postgresql://${user}:postgres@127.0.0.1:${config.dbPort}/postgres`;
}

export const gatewayUrl = (config: StackConfig) => `http://127.0.0.1:${config.gatewayPort}`;
export const mailboxUrl = (config: StackConfig) => `http://127.0.0.1:${config.mailPort}`;
