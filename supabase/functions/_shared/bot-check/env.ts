/**
 * Chooses the bot check from the function's environment:
 *
 *   BOT_CHECK_PROVIDER       hcaptcha | sandbox (anything else, or unset: every token is refused)
 *   HCAPTCHA_SECRET          the account secret (sandbox: defaults to hCaptcha's test secret)
 *   HCAPTCHA_SITEKEY         the public sitekey (sandbox: defaults to hCaptcha's test sitekey)
 *   HCAPTCHA_SITEVERIFY_URL  where to verify (hcaptcha: api.hcaptcha.com; sandbox: the local
 *                            stack's gateway, SUPABASE_URL/sandbox/hcaptcha/siteverify)
 *   BOT_CHECK_WHITELIST      comma-separated addresses and CIDR ranges that skip the check
 */
import { type BotCheck, refusingBotCheck } from './bot-check.ts';
import { HCAPTCHA_SITEVERIFY_URL, HCaptchaBotCheck } from './hcaptcha.ts';
import { BotCheckWhitelist } from './whitelist.ts';

/**
 * hCaptcha's published test keys. The local stack's sandbox (supabase/local/src/captcha-sandbox.ts)
 * registers the same pair; they protect nothing and are no secret.
 */
export const SANDBOX_SITEKEY = '10000000-ffff-ffff-ffff-000000000001';
export const SANDBOX_SECRET = '0x0000000000000000000000000000000000000000';

export interface EnvReader {
  get(name: string): string | undefined;
}

const isWebUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

export function botCheckFromEnv(env: EnvReader = Deno.env): BotCheck {
  const read = (name: string) => env.get(name)?.trim() || undefined;
  const provider = read('BOT_CHECK_PROVIDER')?.toLowerCase();
  if (provider !== 'hcaptcha' && provider !== 'sandbox') {
    return refusingBotCheck(
      provider
        ? `BOT_CHECK_PROVIDER "${provider}" is not hcaptcha or sandbox`
        : 'BOT_CHECK_PROVIDER is not set',
    );
  }
  const sandbox = provider === 'sandbox';
  const supabaseUrl = read('SUPABASE_URL')?.replace(/\/+$/, '');
  const siteverifyUrl =
    read('HCAPTCHA_SITEVERIFY_URL') ??
    (sandbox
      ? supabaseUrl && `${supabaseUrl}/sandbox/hcaptcha/siteverify`
      : HCAPTCHA_SITEVERIFY_URL);
  const siteKey = read('HCAPTCHA_SITEKEY') ?? (sandbox ? SANDBOX_SITEKEY : null);
  if (!siteverifyUrl || !isWebUrl(siteverifyUrl)) {
    return refusingBotCheck(
      `no usable siteverify URL (HCAPTCHA_SITEVERIFY_URL="${siteverifyUrl ?? ''}")`,
      siteKey,
    );
  }
  return new HCaptchaBotCheck({
    secret: read('HCAPTCHA_SECRET') ?? (sandbox ? SANDBOX_SECRET : undefined),
    siteKey,
    siteverifyUrl,
  });
}

export function botCheckWhitelistFromEnv(env: EnvReader = Deno.env): BotCheckWhitelist {
  return BotCheckWhitelist.parse(env.get('BOT_CHECK_WHITELIST'));
}
