import { DEFAULT_LOCALE } from '@shortlane/shared/constants.ts';
import { saleCalendarFromConfig, type SaleCalendar } from '@shortlane/shared/sale-calendar.ts';
import { parseShortUrlBase, type ShortUrlBase } from '@shortlane/shared/short-url.ts';

/**
 * The portal's optional settings, read once from Vite's environment. Only the Supabase URL and
 * key are required (lib/env.ts); everything here has a default that works on the local stack.
 */

/** hCaptcha's published test sitekey, which the local stack's sandbox also accepts. */
export const SANDBOX_HCAPTCHA_SITEKEY = '10000000-ffff-ffff-ffff-000000000001';

/**
 * The local stack's Paddle sandbox client-side token (supabase/local/src/paddle-sandbox): it
 * opens checkouts in that sandbox only.
 */
export const SANDBOX_PADDLE_CLIENT_TOKEN = 'test_shortlanelocalsandbox00000';

/**
 * Paddle.js for billing type 2 (lib/paddle.ts). Unset VITE_PADDLE_CLIENT_TOKEN means the local
 * stack's sandbox, whose Paddle.js stand-in (`${SUPABASE_URL}/sandbox/paddle/paddle.js`) the
 * portal loads before `initializePaddle`; with a real token, `@paddle/paddle-js` loads Paddle's
 * own script, unless VITE_PADDLE_SCRIPT_URL names another.
 */
export interface PaddleConfig {
  environment: 'sandbox' | 'production';
  token: string;
  scriptUrl: string | null;
}

export type AntiRobotConfig =
  /** The local stack's stand-in (`${SUPABASE_URL}/sandbox/hcaptcha`), with the test sitekey. */
  | { provider: 'sandbox'; siteKey: string; sandboxUrl: string }
  | { provider: 'hcaptcha'; siteKey: string };

export interface PortalConfig {
  productName: string;
  locale: string;
  locales: readonly string[];
  antiRobot: AntiRobotConfig;
  /** Ads, and with them the ad-consent provider ("Privacy Manager"), for unsubscribed users. */
  adsEnabled: boolean;
  /** The settings' Account Usage page and its sidebar entry (app-shell 9: a config flag). */
  accountUsageEnabled: boolean;
  accessibilityEmail: string;
  /** Where the spec's external redirects (helpdesk, freescout, blog) lead. */
  externalUrls: { helpdesk: string; freescout: string; blog: string };
  /** The staff kiosk app, when its address is known. */
  kioskUrl: string | null;
  /**
   * Where short domains are served (VITE_SHORT_URL_BASE): every short URL the portal shows is
   * built with it (shortUrl). Unset: production's https on the bare domain.
   */
  shortUrlBase: ShortUrlBase;
  paddle: PaddleConfig;
  /**
   * The Black Friday / Cyber Monday calendar (VITE_SALE_CALENDAR: JSON of the sale's dates, like
   * the billing function's SALE_CALENDAR, which decides the coupon). Unset: the spec's dates.
   */
  saleCalendar: SaleCalendar;
}

function text(source: Record<string, unknown>, name: string): string | null {
  const value = source[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function httpUrl(source: Record<string, unknown>, name: string, fallback: string): string;
function httpUrl(source: Record<string, unknown>, name: string, fallback: null): string | null;
function httpUrl(source: Record<string, unknown>, name: string, fallback: string | null) {
  const value = text(source, name);
  if (value == null) return fallback;
  if (!/^https?:\/\/[^\s/?#]+/i.test(value)) {
    throw new Error(`${name} must be an http(s) URL, got "${value}".`);
  }
  return value;
}

function flag(source: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = text(source, name);
  if (value == null) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, got "${value}".`);
}

function paddleConfig(source: Record<string, unknown>, supabaseUrl: string): PaddleConfig {
  const token = text(source, 'VITE_PADDLE_CLIENT_TOKEN');
  const scriptUrl = httpUrl(source, 'VITE_PADDLE_SCRIPT_URL', null);
  if (token == null)
    return {
      environment: 'sandbox',
      token: SANDBOX_PADDLE_CLIENT_TOKEN,
      scriptUrl: scriptUrl ?? `${supabaseUrl}/sandbox/paddle/paddle.js`,
    };
  const environment =
    text(source, 'VITE_PADDLE_ENVIRONMENT') ??
    (token.startsWith('test_') ? 'sandbox' : 'production');
  if (environment !== 'sandbox' && environment !== 'production')
    throw new Error(`VITE_PADDLE_ENVIRONMENT must be sandbox or production, got "${environment}".`);
  return { environment, token, scriptUrl };
}

/** Reads the settings from `source` (`import.meta.env`); a malformed value throws. */
export function readPortalConfig(
  source: Record<string, unknown>,
  supabaseUrl: string,
): PortalConfig {
  const siteKey = text(source, 'VITE_HCAPTCHA_SITEKEY');
  return {
    productName: 'Shortlane',
    locale: DEFAULT_LOCALE,
    locales: [DEFAULT_LOCALE],
    antiRobot:
      siteKey == null || siteKey === SANDBOX_HCAPTCHA_SITEKEY
        ? {
            provider: 'sandbox',
            siteKey: SANDBOX_HCAPTCHA_SITEKEY,
            sandboxUrl: `${supabaseUrl}/sandbox/hcaptcha`,
          }
        : { provider: 'hcaptcha', siteKey },
    adsEnabled: flag(source, 'VITE_ADS_ENABLED', true),
    accountUsageEnabled: flag(source, 'VITE_ACCOUNT_USAGE_ENABLED', true),
    accessibilityEmail:
      text(source, 'VITE_ACCESSIBILITY_EMAIL') ?? 'accessibility@shortlane.example',
    externalUrls: {
      helpdesk: httpUrl(source, 'VITE_HELPDESK_URL', 'https://help.shortlane.example/'),
      freescout: httpUrl(source, 'VITE_FREESCOUT_URL', 'https://support.shortlane.example/'),
      blog: httpUrl(source, 'VITE_BLOG_URL', 'https://blog.shortlane.example/'),
    },
    kioskUrl: httpUrl(source, 'VITE_KIOSK_URL', null),
    shortUrlBase: parseShortUrlBase(text(source, 'VITE_SHORT_URL_BASE'), 'VITE_SHORT_URL_BASE'),
    paddle: paddleConfig(source, supabaseUrl),
    saleCalendar: saleCalendarFromConfig(text(source, 'VITE_SALE_CALENDAR'), 'VITE_SALE_CALENDAR'),
  };
}
