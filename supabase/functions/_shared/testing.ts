/**
 * Test support for `deno test`: handler tests use the real local stack (database, REST API),
 * found through the env file a running stack writes. Not imported by any function.
 */
import { signHs256 } from './jwt.ts';

export interface StackEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  SUPABASE_JWT_SECRET: string;
  DB_URL: string;
  /** The stack's mail catcher (Mailpit's API). */
  MAILBOX_URL?: string;
  /** The stack's Stripe sandbox (billing type 1). */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  /** The stack's Paddle sandbox (billing type 2). */
  PADDLE_API_KEY?: string;
  PADDLE_WEBHOOK_SECRET?: string;
  PADDLE_API_BASE?: string;
  PADDLE_CLIENT_TOKEN?: string;
  /** The stack's registrar sandbox (Name.com's API) and its credentials. */
  REGISTRAR_API_URL?: string;
  REGISTRAR_USERNAME?: string;
  REGISTRAR_TOKEN?: string;
}

const repoRoot = new URL('../../../', import.meta.url);

function stackEnvFile(): URL {
  // `npm test` names its stack; otherwise the stack:up of this checkout (STACK_STATE_DIR or .local).
  const dir =
    Deno.env.get('SHORTLANE_TEST_STACK_DIR') ?? Deno.env.get('STACK_STATE_DIR') ?? '.local';
  const base = dir.startsWith('/') ? new URL(`file://${dir}/`) : new URL(`${dir}/`, repoRoot);
  return new URL('stack.env', base);
}

/** Reads the running stack's env file, or fails saying how to start one. */
export function stackEnv(): StackEnv {
  const file = stackEnvFile();
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    throw new Error(
      `No running local stack (${file.pathname} is missing): start one with \`npm run stack:up\`, or run \`npm test\`.`,
    );
  }
  const entries = text
    .split('\n')
    .map((line) => line.match(/^([A-Z_]+)=(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .map((match) => [match[1], match[2]]);
  const env = Object.fromEntries(entries) as Partial<StackEnv>;
  for (const key of [
    'SUPABASE_URL',
    'SUPABASE_ANON_KEY',
    'SUPABASE_SERVICE_ROLE_KEY',
    'SUPABASE_JWT_SECRET',
    'DB_URL',
  ] as const) {
    if (!env[key]) throw new Error(`${file.pathname} has no ${key}`);
  }
  return env as StackEnv;
}

/** Gives this test process the env the runtime gives a function, pointing at the stack. */
export function useStackAsRuntimeEnv(): StackEnv {
  const env = stackEnv();
  Deno.env.set('SUPABASE_URL', env.SUPABASE_URL);
  Deno.env.set('SUPABASE_ANON_KEY', env.SUPABASE_ANON_KEY);
  Deno.env.set('SUPABASE_SERVICE_ROLE_KEY', env.SUPABASE_SERVICE_ROLE_KEY);
  Deno.env.set('SUPABASE_DB_URL', env.DB_URL);
  for (const name of [
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_API_BASE',
    'PADDLE_API_KEY',
    'PADDLE_WEBHOOK_SECRET',
    'PADDLE_API_BASE',
    'REGISTRAR_API_URL',
    'REGISTRAR_USERNAME',
    'REGISTRAR_TOKEN',
  ] as const) {
    const value = env[name];
    if (value) Deno.env.set(name, value);
  }
  return env;
}

/** An HS256 token as Supabase Auth issues them (tests mint their own callers). */
export const signToken = signHs256;

/**
 * HMAC-SHA256 of `text` keyed with `secret`, in hex: how Stripe (`v1=`) and Paddle (`h1=`) sign
 * the webhooks the tests deliver.
 */
export async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** The Authorization header of a user signed in with the password (aal1), valid for an hour. */
export async function userAuthorization(env: StackEnv, userId: string): Promise<string> {
  const token = await signToken(env.SUPABASE_JWT_SECRET, {
    sub: userId,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    exp: inAnHour(),
  });
  return `Bearer ${token}`;
}

export const withAuthorization = (authorization: string | undefined, init: RequestInit = {}) =>
  new Request('http://functions.test/fn', {
    ...init,
    headers: authorization ? { Authorization: authorization } : {},
  });

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `read` every `intervalMs` until it answers something other than null or undefined (0 and
 * false count) and returns it; fails naming `what` once `timeoutMs` has passed.
 */
export async function until<T>(
  read: () => Promise<T | null | undefined>,
  { timeoutMs = 10_000, intervalMs = 100, what = 'a value' }: PollOptions & { what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Like `until`, but waits for a truthy answer (false and 0 keep it polling). */
export const waitFor = <T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  options: PollOptions = {},
): Promise<T> => until(async () => (await probe()) || null, { ...options, what });
