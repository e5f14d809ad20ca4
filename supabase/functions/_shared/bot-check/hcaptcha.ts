/**
 * hCaptcha's server-side check: POST the token to siteverify as a form, read the JSON verdict.
 * The same code talks to the local sandbox, which answers in hCaptcha's format.
 */
import { canonicalIp } from '../ip-address.ts';
import type { BotCheck, BotCheckFailure, BotCheckResult } from './bot-check.ts';

export const HCAPTCHA_SITEVERIFY_URL = 'https://api.hcaptcha.com/siteverify';

/** Real tokens are a few KB at most; a larger one is refused without bothering the provider. */
export const MAX_TOKEN_LENGTH = 16_384;

export interface HCaptchaOptions {
  /** The account secret; without it every token is refused. */
  secret: string | undefined;
  /** When given, hCaptcha also checks the token was solved for this sitekey. */
  siteKey?: string | null;
  siteverifyUrl?: string;
  timeoutMs?: number;
}

interface SiteverifyAnswer {
  success: boolean;
  challenge_ts?: string;
  hostname?: string;
  'error-codes'?: string[];
}

// Codes that say our request was wrong, not the visitor's token.
const OUR_FAULT = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
  'not-using-dummy-passcode',
  'bad-request',
]);

function readAnswer(body: unknown): SiteverifyAnswer | null {
  if (typeof body !== 'object' || body === null) return null;
  const answer = body as Record<string, unknown>;
  if (typeof answer.success !== 'boolean') return null;
  const codes = answer['error-codes'];
  return {
    success: answer.success,
    challenge_ts: typeof answer.challenge_ts === 'string' ? answer.challenge_ts : undefined,
    hostname: typeof answer.hostname === 'string' ? answer.hostname : undefined,
    'error-codes': Array.isArray(codes)
      ? codes.filter((code): code is string => typeof code === 'string')
      : [],
  };
}

export class HCaptchaBotCheck implements BotCheck {
  readonly siteKey: string | null;
  readonly #secret: string | undefined;
  readonly #url: string;
  readonly #timeoutMs: number;

  constructor(options: HCaptchaOptions) {
    this.#secret = options.secret?.trim() || undefined;
    this.siteKey = options.siteKey?.trim() || null;
    this.#url = options.siteverifyUrl ?? HCAPTCHA_SITEVERIFY_URL;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
  }

  async verify(
    token: string | null | undefined,
    remoteIp?: string | null,
  ): Promise<BotCheckResult> {
    if (!this.#secret) {
      console.error('Bot check: HCAPTCHA_SECRET is not set; refusing the token');
      return { ok: false, reason: 'misconfigured' };
    }
    const response = token?.trim();
    if (!response) return { ok: false, reason: 'missing_token' };
    if (response.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid_token' };

    const form = new URLSearchParams({ secret: this.#secret, response });
    const ip = remoteIp ? canonicalIp(remoteIp) : null;
    if (ip) form.set('remoteip', ip);
    if (this.siteKey) form.set('sitekey', this.siteKey);

    let answer: SiteverifyAnswer | null;
    try {
      const reply = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await reply.text();
      answer = reply.status < 500 ? readAnswer(JSON.parse(text)) : null;
    } catch (error) {
      console.error(`Bot check: siteverify failed: ${error instanceof Error ? error.name : error}`);
      return { ok: false, reason: 'unavailable' };
    }
    if (!answer) return { ok: false, reason: 'unavailable' };
    if (answer.success) {
      return { ok: true, hostname: answer.hostname, challengeTs: answer.challenge_ts };
    }
    const errorCodes = answer['error-codes'] ?? [];
    const reason: BotCheckFailure = errorCodes.some((code) => OUR_FAULT.has(code))
      ? 'misconfigured'
      : errorCodes.includes('missing-input-response')
        ? 'missing_token'
        : 'invalid_token';
    if (reason === 'misconfigured')
      console.error(`Bot check: siteverify refused our request: ${errorCodes.join(', ')}`);
    return { ok: false, reason, errorCodes };
  }
}
