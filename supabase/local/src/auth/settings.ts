import path from 'node:path';
import { gatewayUrl, type StackConfig } from '../config.ts';
import { StackError } from '../errors.ts';
import { readSupabaseConfig } from '../supabase-config.ts';
import { parseGoDuration } from './duration.ts';
import { hookFunctionOf, type HookSettings } from './hooks.ts';

/**
 * GoTrue's configuration, derived the way the Supabase CLI derives it from supabase/config.toml.
 * Precedence: explicit overrides (tests, tools) > STACK_* environment > config.toml > GoTrue's
 * defaults as the CLI sets them.
 */
export interface AuthSettings {
  /** Public base URL of this API, e.g. http://127.0.0.1:54321/auth/v1 (GoTrue's API_EXTERNAL_URL). */
  externalUrl: string;
  siteUrl: string;
  /** Glob patterns of further allowed redirect targets (GoTrue's URI_ALLOW_LIST). */
  additionalRedirectUrls: string[];
  jwtSecret: string;
  jwtExpirySeconds: number;
  jwtIssuer: string;
  /** The audience of user tokens and the default role of new users. */
  audience: string;
  defaultRole: string;
  adminRoles: string[];
  signupEnabled: boolean;
  emailSignupEnabled: boolean;
  anonymousSignInsEnabled: boolean;
  /** Sign-ups confirm immediately (enable_confirmations = false). */
  mailerAutoconfirm: boolean;
  /** E-mail changes need confirming on both addresses (double_confirm_changes). */
  secureEmailChange: boolean;
  /** Password changes need a fresh nonce unless the session is recent (secure_password_change). */
  updatePasswordRequiresReauthentication: boolean;
  minPasswordLength: number;
  /** Character sets of which a password needs one character each (password_requirements). */
  passwordRequiredCharacters: string[];
  refreshTokenRotation: boolean;
  refreshTokenReuseIntervalSeconds: number;
  otpLength: number;
  otpExpirySeconds: number;
  emailMaxFrequencyMs: number;
  /** [auth.saml]: SAML 2.0 single sign-on (GoTrue's GOTRUE_SAML_*). */
  saml: {
    enabled: boolean;
    /** How long a sign-in may take at the identity provider (relay_state_validity_period). */
    relayStateValidityMs: number;
    /** Where the service provider's signing key and certificate are kept (made at first start). */
    keyDir: string;
  };
  /** [auth.hook.*]: the Postgres hooks this Auth runs. */
  hooks: {
    passwordVerificationAttempt: HookSettings;
  };
  mfa: {
    maxEnrolledFactors: number;
    maxVerifiedFactors: number;
    totpEnrollEnabled: boolean;
    totpVerifyEnabled: boolean;
    challengeExpirySeconds: number;
    factorExpirySeconds: number;
  };
}

export type Table = Record<string, unknown>;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SYMBOLS = '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~';

/** The CLI's names for password_requirements and the character sets GoTrue gets for them. */
const PASSWORD_REQUIREMENTS: Record<string, string[]> = {
  '': [],
  letters_digits: [LOWER + UPPER, DIGITS],
  lower_upper_letters_digits: [LOWER, UPPER, DIGITS],
  lower_upper_letters_digits_symbols: [LOWER, UPPER, DIGITS, SYMBOLS],
};

export function table(parent: Table, key: string, where: string): Table {
  const value = parent[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StackError(`supabase/config.toml: [${where}] must be a table`);
  return value as Table;
}

export function reader(section: Table, where: string) {
  const fail = (key: string, expected: string): never => {
    throw new StackError(`supabase/config.toml: [${where}] ${key} must be ${expected}`);
  };
  return {
    bool(key: string, fallback: boolean): boolean {
      const value = section[key];
      if (value === undefined) return fallback;
      return typeof value === 'boolean' ? value : fail(key, 'true or false');
    },
    int(key: string, fallback: number): number {
      const value = section[key];
      if (value === undefined) return fallback;
      return typeof value === 'number' && Number.isInteger(value) && value >= 0
        ? value
        : fail(key, 'a whole number');
    },
    string(key: string, fallback: string): string {
      const value = section[key];
      if (value === undefined) return fallback;
      return typeof value === 'string' ? value : fail(key, 'a string');
    },
    strings(key: string): string[] {
      const value = section[key];
      if (value === undefined) return [];
      return Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? value
        : fail(key, 'a list of strings');
    },
    durationMs(key: string, fallback: string): number {
      const raw = this.string(key, fallback);
      try {
        return parseGoDuration(raw);
      } catch (error) {
        return fail(key, `a duration such as "1s" (${(error as Error).message})`);
      }
    },
  };
}

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new StackError(`${name} must be a whole number of seconds, got "${raw}"`);
  return value;
}

function checkedHook(hook: HookSettings): HookSettings {
  if (hook.enabled) {
    try {
      hookFunctionOf(hook.uri);
    } catch (error) {
      throw new StackError(`supabase/config.toml: [auth.hook] ${(error as Error).message}`);
    }
  }
  return hook;
}

export function loadAuthSettings(
  stack: StackConfig,
  overrides: Partial<AuthSettings> = {},
  toml: Table = readSupabaseConfig(),
): AuthSettings {
  const auth = table(toml, 'auth', 'auth');
  const email = table(auth, 'email', 'auth.email');
  const mfa = table(auth, 'mfa', 'auth.mfa');
  const totp = table(mfa, 'totp', 'auth.mfa.totp');
  const saml = table(auth, 'saml', 'auth.saml');
  const hook = table(auth, 'hook', 'auth.hook');
  const passwordHook = table(
    hook,
    'password_verification_attempt',
    'auth.hook.password_verification_attempt',
  );
  const passwordHookOf = reader(passwordHook, 'auth.hook.password_verification_attempt');
  const samlOf = reader(saml, 'auth.saml');
  const authOf = reader(auth, 'auth');
  const emailOf = reader(email, 'auth.email');
  const mfaOf = reader(mfa, 'auth.mfa');
  const totpOf = reader(totp, 'auth.mfa.totp');

  const requirement = authOf.string('password_requirements', '');
  const requiredCharacters = PASSWORD_REQUIREMENTS[requirement];
  if (!requiredCharacters)
    throw new StackError(
      `supabase/config.toml: [auth] password_requirements must be one of ${Object.keys(
        PASSWORD_REQUIREMENTS,
      )
        .map((name) => JSON.stringify(name))
        .join(', ')}`,
    );

  const externalUrl = `${gatewayUrl(stack)}/auth/v1`;
  const siteUrl =
    process.env.STACK_SITE_URL !== undefined
      ? stack.siteUrl
      : authOf.string('site_url', stack.siteUrl);
  const jwtExpiry =
    process.env.STACK_JWT_EXPIRY !== undefined
      ? stack.jwtExpiry
      : authOf.int('jwt_expiry', stack.jwtExpiry);

  return {
    externalUrl,
    siteUrl,
    additionalRedirectUrls: [
      ...new Set([...authOf.strings('additional_redirect_urls'), ...stack.additionalRedirectUrls]),
    ],
    jwtSecret: stack.jwtSecret,
    jwtExpirySeconds: jwtExpiry,
    jwtIssuer: externalUrl,
    audience: 'authenticated',
    defaultRole: 'authenticated',
    adminRoles: ['service_role', 'supabase_admin'],
    signupEnabled: authOf.bool('enable_signup', true),
    emailSignupEnabled: emailOf.bool('enable_signup', true),
    anonymousSignInsEnabled: authOf.bool('enable_anonymous_sign_ins', false),
    mailerAutoconfirm: !emailOf.bool('enable_confirmations', false),
    secureEmailChange: emailOf.bool('double_confirm_changes', true),
    updatePasswordRequiresReauthentication: emailOf.bool('secure_password_change', false),
    minPasswordLength: authOf.int('minimum_password_length', 6),
    passwordRequiredCharacters: requiredCharacters,
    refreshTokenRotation: authOf.bool('enable_refresh_token_rotation', true),
    refreshTokenReuseIntervalSeconds:
      envInt('STACK_AUTH_REFRESH_TOKEN_REUSE_INTERVAL') ??
      authOf.int('refresh_token_reuse_interval', 10),
    otpLength: emailOf.int('otp_length', 6),
    otpExpirySeconds: emailOf.int('otp_expiry', 3600),
    emailMaxFrequencyMs: emailOf.durationMs('max_frequency', '1s'),
    saml: {
      enabled: samlOf.bool('enabled', false),
      relayStateValidityMs: samlOf.durationMs('relay_state_validity_period', '2m'),
      keyDir: path.join(stack.stateDir, 'auth-saml'),
    },
    hooks: {
      passwordVerificationAttempt: checkedHook({
        enabled: passwordHookOf.bool('enabled', false),
        uri: passwordHookOf.string('uri', ''),
      }),
    },
    mfa: {
      maxEnrolledFactors: mfaOf.int('max_enrolled_factors', 10),
      maxVerifiedFactors: 10,
      totpEnrollEnabled: totpOf.bool('enroll_enabled', false),
      totpVerifyEnabled: totpOf.bool('verify_enabled', false),
      challengeExpirySeconds: 300,
      factorExpirySeconds: 300,
    },
    ...overrides,
  };
}
