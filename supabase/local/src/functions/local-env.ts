import fs from 'node:fs';
import { formatShortUrlBase } from '../../../../shared/src/short-url.ts';
import { SANDBOX_SECRET, SANDBOX_SITEKEY } from '../captcha-sandbox.ts';
import { dnsSandboxEnv } from '../dns-sandbox/env.ts';
import { stripeSandboxEnv } from '../stripe-sandbox/env.ts';
import { paddleSandboxEnv } from '../paddle-sandbox/env.ts';
import { registrarSandboxEnv } from '../registrar-sandbox/env.ts';

/**
 * Variables our functions read that Supabase's runtime does not set, with values fit for this
 * machine only (supabase/functions/.env.example documents them). Production sets its own as
 * function secrets; there the sandbox and these values never apply.
 */
export const LOCAL_FUNCTION_DEFAULTS: Readonly<Record<string, string>> = {
  // The bot check against the stack's hCaptcha sandbox (/sandbox/hcaptcha) with its test pair.
  BOT_CHECK_PROVIDER: 'sandbox',
  HCAPTCHA_SITEKEY: SANDBOX_SITEKEY,
  HCAPTCHA_SECRET: SANDBOX_SECRET,
  // Salts the click IP hashes; a fixed local value keeps hashes comparable across restarts.
  CLICK_IP_SALT: 'shortlane-local-click-ip-salt',
  // No TRUSTED_PROXIES: the gateway decides who the client is (STACK_TRUSTED_PROXIES) and
  // forwards only that address, so the last hop is the client.
  // TEST-NET-1 (RFC 5737) is never a real client: a guest forwarded from there skips the widget.
  BOT_CHECK_WHITELIST: '192.0.2.0/24',
  // Guest link creations per client address and window (links/guest-quota.ts).
  GUEST_LINK_RATE_LIMIT: '10/1h',
  // Public API calls per token and window (api/config.ts), and where its error bodies link to:
  // the local portal's API reference.
  API_RATE_LIMIT: '60/1m',
  API_DOC_BASE_URL: 'http://localhost:5173',
  // Checkouts return to the portal on this machine, whatever port it runs on (billing function).
  BILLING_RETURN_ORIGINS: 'http://localhost:*,http://127.0.0.1:*',
  // Invitation mails link back to the portal that sent them, on this machine only
  // (invitation-mail; production names its portal).
  INVITATION_LINK_ORIGINS: 'http://localhost:*,http://127.0.0.1:*',
  MAIL_PROVIDER: 'mailpit',
  // Blank: the spec's sale dates. Listed so a SALE_CALENDAR in the stack's environment (tests
  // putting "now" in a sale phase) reaches the billing function.
  SALE_CALENDAR: '',
};

/**
 * Short links as this stack serves them: plain http on its gateway's port (the gateway hands
 * requests for short domains to the `r` function), so `http://<domain>:54321/<alias>`. The
 * functions get it as SHORT_URL_BASE, the apps as VITE_SHORT_URL_BASE (scripts/start.ts, e2e).
 */
export function localShortUrlBase(gatewayUrl: string): string {
  const { port } = new URL(gatewayUrl);
  return formatShortUrlBase({ scheme: 'http', port: port === '' ? null : Number(port) });
}

/** LOCAL_FUNCTION_DEFAULTS plus what depends on where this stack's gateway listens. */
export function localFunctionDefaults(
  gatewayUrl: string,
  dnsPort?: number,
  mailboxUrl?: string,
): Record<string, string> {
  return {
    ...LOCAL_FUNCTION_DEFAULTS,
    // Product mail goes to the stack's catcher (its Mailpit send API).
    ...(mailboxUrl === undefined ? {} : { MAILPIT_URL: mailboxUrl }),
    SHORT_URL_BASE: localShortUrlBase(gatewayUrl),
    // Billing type 1 against the stack's Stripe sandbox (/sandbox/stripe).
    ...stripeSandboxEnv(gatewayUrl),
    // Billing type 2 against the stack's Paddle sandbox (/sandbox/paddle).
    ...paddleSandboxEnv(gatewayUrl),
    // Domain purchases against the stack's Name.com sandbox (/sandbox/registrar).
    ...registrarSandboxEnv(gatewayUrl),
    ...(dnsPort === undefined ? {} : dnsSandboxEnv(gatewayUrl, dnsPort)),
  };
}

/** The names a dotenv file sets (`NAME=value`, `export NAME=value`; comments ignored). */
export function dotEnvNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name) names.add(name);
  }
  return names;
}

/**
 * The local defaults a function process gets, each only where nothing real sets it: a name set
 * in `dotEnvFile` (functions/.env, which Deno reads and never lets override a variable already
 * set) gets nothing from here, and one set in the stack's own environment passes that value on.
 */
export function localFunctionEnv(
  dotEnvFile: string,
  defaults: Readonly<Record<string, string>>,
  environment: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const fromFile = fs.existsSync(dotEnvFile)
    ? dotEnvNames(fs.readFileSync(dotEnvFile, 'utf8'))
    : new Set<string>();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) {
    if (!fromFile.has(name)) env[name] = environment[name] ?? value;
  }
  return env;
}
