import { describe, expect, it } from 'vitest';
import {
  ACTIVE_ALIAS_LIMIT_MODAL_PERCENT,
  ANTI_ROBOT,
  BREAKPOINTS,
  BULK_FILE,
  CONSENT_DEFAULTS,
  COOKIE_NAMES,
  DEFAULT_BILLING_INTERVAL,
  DEFAULT_CURRENCY,
  DEFAULT_LOCALE,
  DEFAULT_STATS_PERIOD,
  DROPDOWN_DEFAULTS,
  hasUserStatusFlag,
  isStatsPeriod,
  NOTICE_DURATION_MS,
  OVERAGE_PRICE,
  POLL_INTERVAL_MS,
  POST_ACTION_WAIT_MS,
  PROVIDER_POLL_INTERVAL_MS,
  QR_CODE,
  SHARE_NETWORKS,
  SPINNER_SIZES,
  STATS_PERIODS,
  STORAGE_KEYS,
  SURVEY_OPEN_DELAY_MS,
  TAG_LENGTH,
  TRIAL_PROMOTION_SNOOZE_MS,
  TRIAL_REMINDER_DAYS,
  TWO_FACTOR_MODES,
  URL_INPUT_FOCUS_DELAY_MS,
  UTM_FIELD_RULES,
  UTM_FIELDS,
} from './constants.ts';

// Each expectation quotes the spec's section 9 ("Business constants and limits").
describe('app-shell constants', () => {
  it('polls every 120000 ms, waits 3000 ms after actions, opens the survey after 500 ms', () => {
    expect(POLL_INTERVAL_MS).toBe(120000);
    expect(POST_ACTION_WAIT_MS).toBe(3000);
    expect(SURVEY_OPEN_DELAY_MS).toBe(500);
    expect(PROVIDER_POLL_INTERVAL_MS).toBe(10);
  });

  it('shows the trial promotion again after 24 hours; reminders at 1 and 7 days', () => {
    expect(TRIAL_PROMOTION_SNOOZE_MS).toBe(24 * 60 * 60 * 1000);
    expect(TRIAL_REMINDER_DAYS).toEqual({ hardAtMost: 1, softAtMost: 7 });
  });

  it('keeps notices 3 s for global errors and 5 s otherwise', () => {
    expect(NOTICE_DURATION_MS).toEqual({ globalError: 3000, default: 5000 });
  });

  it('prices overage at 2 per 100 units, pro-rated', () => {
    expect(OVERAGE_PRICE).toEqual({ amount: 2, perUnits: 100, proRated: true });
  });

  it('defaults to yearly billing, USD and en', () => {
    expect(DEFAULT_BILLING_INTERVAL).toBe('yearly');
    expect(DEFAULT_CURRENCY).toBe('USD');
    expect(DEFAULT_LOCALE).toBe('en');
  });

  it('has the spec breakpoints, spinner sizes and dropdown defaults', () => {
    expect(BREAKPOINTS).toEqual({ sm: 576, md: 768, lg: 992, xl: 1200 });
    expect(SPINNER_SIZES).toEqual({ sm: '35px', base: '50px', lg: '100px', xl: '125px' });
    expect(DROPDOWN_DEFAULTS).toEqual({ maxHeight: '265px', maxWidth: '265px', minWidth: '200px' });
  });

  it('offers stats periods of 1 hour, 24 hours, 7 days and 30 days, default 24 hours', () => {
    expect(STATS_PERIODS).toEqual({
      last_1_hour: 3_600_000,
      last_24_hour: 86_400_000,
      last_7_day: 604_800_000,
      last_30_day: 2_592_000_000,
    });
    expect(DEFAULT_STATS_PERIOD).toBe('last_24_hour');
    expect(isStatsPeriod('last_7_day')).toBe(true);
    expect(isStatsPeriod('last_2_day')).toBe(false);
    expect(isStatsPeriod('toString')).toBe(false);
  });

  it('keeps the spec storage keys and consent defaults (cookies and terms false, CCPA true)', () => {
    expect(STORAGE_KEYS.stateStatus).toBe('stateStatus');
    expect(STORAGE_KEYS.passwordConfirmed).toBe('passwordConfirmed');
    expect(COOKIE_NAMES.strictPrivate).toBe('tinyStrictPrivate');
    expect(CONSENT_DEFAULTS).toEqual({ cookies: false, terms: false, ccpa: true });
    expect(new Set(Object.values(STORAGE_KEYS)).size).toBe(Object.keys(STORAGE_KEYS).length);
  });

  it('reads the user status bit flags 4, 8 and 16', () => {
    expect(hasUserStatusFlag(4 | 16, 'noAffiliate')).toBe(true);
    expect(hasUserStatusFlag(4 | 16, 'noMailings')).toBe(false);
    expect(hasUserStatusFlag(4 | 16, 'hideInvoices')).toBe(true);
    expect(hasUserStatusFlag(0, 'noAffiliate')).toBe(false);
  });

  it('numbers two-factor modes disabled 0, TOTP 1, Authy 2', () => {
    expect(TWO_FACTOR_MODES).toEqual({ disabled: 0, totp: 1, authy: 2 });
  });
});

describe('link-creation constants', () => {
  it('accepts bulk files up to 10MB of csv, xls, xlsx, ods; the picker lists csv, xlsx, ods', () => {
    expect(BULK_FILE.maxBytes).toBe(10 * 1024 * 1024);
    expect(BULK_FILE.acceptedExtensions).toEqual(['csv', 'xls', 'xlsx', 'ods']);
    expect(BULK_FILE.pickerExtensions).toEqual(['csv', 'xlsx', 'ods']);
  });

  it('limits tags to 2 to 45 characters', () => {
    expect(TAG_LENGTH).toEqual({ min: 2, max: 45 });
  });

  it('debounces anti-robot errors 60000 ms, expires tokens after 299999 ms, retries every 120000 ms', () => {
    expect(ANTI_ROBOT).toEqual({
      errorDebounceMs: 60000,
      tokenExpiryMs: 299999,
      retryIntervalMs: 120000,
    });
  });

  it('refocuses the URL input after 300 ms', () => {
    expect(URL_INPUT_FOCUS_DELAY_MS).toBe(300);
  });

  it('shows QR codes at 127 and downloads SVG, PNG 400 (default) and PNG 1200', () => {
    expect(QR_CODE.displaySize).toBe(127);
    expect(QR_CODE.defaultPngSize).toBe(400);
    expect(QR_CODE.downloads).toEqual([
      { format: 'svg' },
      { format: 'png', size: 400 },
      { format: 'png', size: 1200 },
    ]);
  });

  it('shares to Facebook, Twitter, WhatsApp, LinkedIn and Email', () => {
    expect(SHARE_NETWORKS).toEqual(['facebook', 'twitter', 'whatsapp', 'linkedin', 'email']);
  });

  it('limits UTM fields to 100/50/150/50/100 with source, medium and campaign required', () => {
    expect(UTM_FIELDS).toEqual([
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
    ]);
    expect(UTM_FIELDS.map((field) => UTM_FIELD_RULES[field].maxLength)).toEqual([
      100, 50, 150, 50, 100,
    ]);
    expect(UTM_FIELDS.filter((field) => UTM_FIELD_RULES[field].required)).toEqual([
      'utm_source',
      'utm_medium',
      'utm_campaign',
    ]);
  });

  it('opens the plan-limit modal at 100% of the active-alias limit', () => {
    expect(ACTIVE_ALIAS_LIMIT_MODAL_PERCENT).toBe(100);
  });
});
