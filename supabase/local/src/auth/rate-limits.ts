import { StackError } from '../errors.ts';
import { readSupabaseConfig } from '../supabase-config.ts';
import { clientInfo } from './context.ts';
import { tooManyRequests } from './errors.ts';
import { reader, table, type Table } from './settings.ts';

/**
 * GoTrue's abuse limits (internal/api/apilimiter), set from `[auth.rate_limit]` of
 * supabase/config.toml the way the Supabase CLI passes them on (GOTRUE_RATE_LIMIT_*).
 *
 * Per client address, GoTrue keeps token buckets (tollbooth): each holds `burst` requests (30;
 * anonymous sign-ins hold their hourly number) and refills at the configured number per period.
 * Which bucket an endpoint draws from:
 *
 *   token                POST /token (password, refresh_token, pkce, id_token)   token_refresh / 5 min
 *   web3                 POST /token?grant_type=web3                           web3 / 5 min
 *   verify               GET and POST /verify                                  token_verifications / 5 min
 *   signups, recover,    POST /signup (with an address), /recover, /resend,    sign_in_sign_ups / 5 min,
 *   resend, otp,         /otp, /magiclink, PUT /user                           one bucket set each
 *   magiclink, user
 *   anonymous            POST /signup without an address                       anonymous_users / hour
 *   factor_challenge,    POST /factors/{id}/challenge and /verify (TOTP)       15 / minute (GoTrue's
 *   factor_verify                                                              MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY)
 *
 * E-mails are counted once for the whole project, not per address: at most `email_sent` in each
 * hour (an interval counter), and only while sign-ups need confirming, as in GoTrue.
 */

export type RateLimitedEndpoint =
  | 'token'
  | 'web3'
  | 'verify'
  | 'signups'
  | 'recover'
  | 'resend'
  | 'otp'
  | 'magiclink'
  | 'user'
  | 'anonymous'
  | 'factor_challenge'
  | 'factor_verify';

export interface AuthRateLimitSettings {
  /** E-mails per hour, all recipients together (email_sent). */
  emailSent: number;
  /** SMS per hour (sms_sent); kept for completeness: this stack sends no SMS. */
  smsSent: number;
  /** Anonymous sign-ins per hour per address (anonymous_users). */
  anonymousUsers: number;
  /** /token requests per 5 minutes per address (token_refresh). */
  tokenRefresh: number;
  /** Sign-up and e-mail requests per 5 minutes per address (sign_in_sign_ups). */
  signInSignUps: number;
  /** /verify requests per 5 minutes per address (token_verifications). */
  tokenVerifications: number;
  /** Web3 sign-ins per 5 minutes per address (web3). */
  web3: number;
  /** MFA challenges and verifications per minute per address. */
  mfaChallengeAndVerify: number;
  /** Requests a bucket holds when full (GoTrue: 30). */
  burst: number;
  /** GoTrue's hour, 5 minutes and minute, multiplied by this (tests shorten them). */
  periodScale: number;
}

const MINUTE_MS = 60_000;
const FIVE_MINUTES_MS = 5 * MINUTE_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** The Supabase CLI's config.toml template values, and GoTrue's own where the CLI sets none. */
export const DEFAULT_RATE_LIMITS: AuthRateLimitSettings = {
  emailSent: 2,
  smsSent: 30,
  anonymousUsers: 30,
  tokenRefresh: 150,
  signInSignUps: 30,
  tokenVerifications: 30,
  web3: 30,
  mfaChallengeAndVerify: 15,
  burst: 30,
  periodScale: 1,
};

/** config.toml key, settings field, and the STACK_AUTH_RATE_LIMIT_* variable that overrides it. */
const KEYS: [toml: string | null, field: keyof AuthRateLimitSettings][] = [
  ['email_sent', 'emailSent'],
  ['sms_sent', 'smsSent'],
  ['anonymous_users', 'anonymousUsers'],
  ['token_refresh', 'tokenRefresh'],
  ['sign_in_sign_ups', 'signInSignUps'],
  ['token_verifications', 'tokenVerifications'],
  ['web3', 'web3'],
  [null, 'mfaChallengeAndVerify'],
  [null, 'burst'],
  [null, 'periodScale'],
];

const envName = (field: string) =>
  `STACK_AUTH_RATE_LIMIT_${field.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;

function envNumber(name: string, environment: NodeJS.ProcessEnv): number | undefined {
  const raw = environment[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new StackError(`${name} must be a number of at least 0, got "${raw}"`);
  return value;
}

/**
 * Precedence as for the other auth settings: explicit overrides (tests) > STACK_AUTH_RATE_LIMIT_*
 * environment (the test stack relaxes the limits) > config.toml > the CLI's defaults.
 */
export function loadRateLimitSettings(
  overrides: Partial<AuthRateLimitSettings> = {},
  toml: Table = readSupabaseConfig(),
  environment: NodeJS.ProcessEnv = process.env,
): AuthRateLimitSettings {
  const section = table(table(toml, 'auth', 'auth'), 'rate_limit', 'auth.rate_limit');
  const of = reader(section, 'auth.rate_limit');
  const settings = { ...DEFAULT_RATE_LIMITS };
  for (const [key, field] of KEYS) {
    if (key !== null) settings[field] = of.int(key, settings[field]);
    settings[field] = envNumber(envName(field), environment) ?? settings[field];
  }
  return { ...settings, ...overrides };
}

/** Token buckets by client address (golang.org/x/time/rate, which tollbooth uses). */
class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMs: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** A bucket that has refilled is the same as none: dropping it bounds the memory. */
  private forgetFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.burst) this.buckets.delete(key);
    }
  }
}

/** GoTrue's IntervalLimiter: `events` per period, the count reset at each period boundary. */
class IntervalCounter {
  private start: number;
  private count = 0;

  constructor(
    private readonly events: number,
    private readonly periodMs: number,
    private readonly now: () => number,
  ) {
    this.start = now();
  }

  take(): boolean {
    const now = this.now();
    const periods = Math.floor((now - this.start) / this.periodMs);
    if (periods > 0) {
      this.start += periods * this.periodMs;
      this.count = 0;
    }
    if (this.count >= this.events) return false;
    this.count += 1;
    return true;
  }
}

export const REQUEST_RATE_LIMIT_MESSAGE = 'Request rate limit reached';
/** GoTrue's EmailRateLimitExceeded, lower case as it writes it. */
export const EMAIL_RATE_LIMIT_MESSAGE = 'email rate limit exceeded';

export class AuthRateLimits {
  private readonly buckets: Record<RateLimitedEndpoint, TokenBuckets>;
  private readonly emails: IntervalCounter;

  constructor(
    readonly settings: AuthRateLimitSettings,
    now: () => number = Date.now,
  ) {
    const { burst, periodScale } = settings;
    const per = (events: number, periodMs: number, size = burst) =>
      new TokenBuckets(events / (periodMs * periodScale), size, now);
    const otp = () => per(settings.signInSignUps, FIVE_MINUTES_MS);
    this.buckets = {
      token: per(settings.tokenRefresh, FIVE_MINUTES_MS),
      web3: per(settings.web3, FIVE_MINUTES_MS),
      verify: per(settings.tokenVerifications, FIVE_MINUTES_MS),
      signups: otp(),
      recover: otp(),
      resend: otp(),
      otp: otp(),
      magiclink: otp(),
      user: otp(),
      anonymous: per(settings.anonymousUsers, HOUR_MS, settings.anonymousUsers),
      factor_challenge: per(settings.mfaChallengeAndVerify, MINUTE_MS),
      factor_verify: per(settings.mfaChallengeAndVerify, MINUTE_MS),
    };
    this.emails = new IntervalCounter(settings.emailSent, HOUR_MS * periodScale, now);
  }

  /** Draws one request of the client's bucket for `endpoint`; a 429 when it is empty. */
  take(endpoint: RateLimitedEndpoint, request: Request): void {
    if (!this.buckets[endpoint].take(clientInfo(request).ip))
      throw tooManyRequests('over_request_rate_limit', REQUEST_RATE_LIMIT_MESSAGE);
  }

  /**
   * Counts one e-mail about to be sent; a 429 when the hour's are used up. GoTrue skips the count
   * when sign-ups confirm by themselves (autoconfirm), but refuses every mail when the limit is 0.
   */
  takeEmail(autoconfirm: boolean): void {
    const refused = this.settings.emailSent === 0 || (!autoconfirm && !this.emails.take());
    if (refused) throw tooManyRequests('over_email_send_rate_limit', EMAIL_RATE_LIMIT_MESSAGE);
  }
}
