/**
 * The numbers and names of both specs' "Business constants and limits" (section 9), plus the
 * few enumerations of section 3 that other modules share. Keep values exactly as the spec
 * writes them; the tests quote the spec.
 */
import { DAY_MS, HOUR_MS } from './time.ts';

// --- Timing (app-shell 4 and 9; link-creation 4, 8 and 9) ---

/** Heartbeat and notification poll. */
export const POLL_INTERVAL_MS = 120_000;
/** Wait after cancel / reactivate / resume before refreshing state. */
export const POST_ACTION_WAIT_MS = 3_000;
/** The onboarding survey opens this long after it has loaded. */
export const SURVEY_OPEN_DELAY_MS = 500;
/** Polling while waiting for the payment provider or app state. */
export const PROVIDER_POLL_INTERVAL_MS = 10;
/** A closed free-trial promotion reappears after this long. */
export const TRIAL_PROMOTION_SNOOZE_MS = 24 * HOUR_MS;
/** Notices last 3 s for global errors and 5 s otherwise. */
export const NOTICE_DURATION_MS = { globalError: 3_000, default: 5_000 } as const;
/** Delay before refocusing the URL input after a failed create. */
export const URL_INPUT_FOCUS_DELAY_MS = 300;

/** Trial reminders by days left: hard at 1 day or less, soft above 1 and up to 7. */
export const TRIAL_REMINDER_DAYS = { hardAtMost: 1, softAtMost: 7 } as const;

// --- Anti-robot check (link-creation 4, 8, 9) ---

export const ANTI_ROBOT = {
  /** Validation errors are shown at most once per this interval. */
  errorDebounceMs: 60_000,
  /** A token expires after this long and the widget resets. */
  tokenExpiryMs: 299_999,
  /** Automatic retry interval. */
  retryIntervalMs: 120_000,
} as const;

// --- Billing (app-shell 1, 3, 9) ---

export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const DEFAULT_BILLING_INTERVAL: BillingInterval = 'yearly';
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_LOCALE = 'en';

/** Billing types: 1 = first card provider, 2 = second checkout provider. */
export const BILLING_TYPES = { provider1: 1, provider2: 2 } as const;
export type BillingType = (typeof BILLING_TYPES)[keyof typeof BILLING_TYPES];

export const PAYMENT_FLOW_KINDS = [
  'default-payment',
  'domain-purchase',
  'invoice-payment',
  'payment-method-update',
  'subscription-purchase',
] as const;
export type PaymentFlowKind = (typeof PAYMENT_FLOW_KINDS)[number];

/** Overage price: 2 per 100 units over the limit, pro-rated. */
export const OVERAGE_PRICE = { amount: 2, perUnits: 100, proRated: true } as const;

/** The plan-limit modal opens at this share (in %) of the active-alias limit. */
export const ACTIVE_ALIAS_LIMIT_MODAL_PERCENT = 100;

// --- Layout (app-shell 9) ---

export const BREAKPOINTS = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;
export const SPINNER_SIZES = { sm: '35px', base: '50px', lg: '100px', xl: '125px' } as const;
export const DROPDOWN_DEFAULTS = {
  maxHeight: '265px',
  maxWidth: '265px',
  minWidth: '200px',
} as const;

// --- Link creation (link-creation 5, 9) ---

export const BULK_FILE = {
  maxBytes: 10 * 1024 * 1024,
  /** Types the server accepts. */
  acceptedExtensions: ['csv', 'xls', 'xlsx', 'ods'],
  /** Types the file picker's filter lists. */
  pickerExtensions: ['csv', 'xlsx', 'ods'],
} as const;

export const TAG_LENGTH = { min: 2, max: 45 } as const;

export const EXPIRY_WINDOW = {
  /** Selectable dates run from today to this many years ahead. */
  maxYearsAhead: 5,
  /** The time must be later than about this many minutes from now, compared to the minute. */
  minMinutesAhead: 5,
} as const;

export const UTM_FIELD_RULES = {
  utm_source: { required: true, maxLength: 100 },
  utm_medium: { required: true, maxLength: 50 },
  utm_campaign: { required: true, maxLength: 150 },
  utm_term: { required: false, maxLength: 50 },
  utm_content: { required: false, maxLength: 100 },
} as const;
export type UtmField = keyof typeof UTM_FIELD_RULES;
export const UTM_FIELDS = Object.keys(UTM_FIELD_RULES) as readonly UtmField[];

export const QR_CODE = {
  displaySize: 127,
  /** Downloads: SVG, PNG (default 400) and PNG 1200. */
  downloads: [{ format: 'svg' }, { format: 'png', size: 400 }, { format: 'png', size: 1200 }],
  defaultPngSize: 400,
} as const;

export const SHARE_NETWORKS = ['facebook', 'twitter', 'whatsapp', 'linkedin', 'email'] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];

// --- Analytics (app-shell 3, 9) ---

export const STATS_PERIODS = {
  last_1_hour: HOUR_MS,
  last_24_hour: 24 * HOUR_MS,
  last_7_day: 7 * DAY_MS,
  last_30_day: 30 * DAY_MS,
} as const;
export type StatsPeriod = keyof typeof STATS_PERIODS;
export const DEFAULT_STATS_PERIOD: StatsPeriod = 'last_24_hour';

export function isStatsPeriod(value: unknown): value is StatsPeriod {
  return typeof value === 'string' && Object.hasOwn(STATS_PERIODS, value);
}

// --- Browser storage and cookies ---

/**
 * Keys the spec names are kept verbatim (stateStatus, passwordConfirmed, tinyStrictPrivate).
 * The spec says the others are "kept in the browser" without naming them; these names are ours.
 */
export const STORAGE_KEYS = {
  /** Cross-tab login state: false logs other tabs out, true refreshes them. */
  stateStatus: 'stateStatus',
  passwordConfirmed: 'passwordConfirmed',
  cookiesAccepted: 'cookiesAccepted',
  termsAccepted: 'termsAccepted',
  ccpaAccepted: 'ccpaAccepted',
  statsPeriod: 'statsPeriod',
  trialPromotionClosedAt: 'trialPromotionClosedAt',
  trialReminderClosedAt: 'trialReminderClosedAt',
  surveySkipped: 'surveySkipped',
  teamMode: 'teamMode',
  salePromotionClosed: 'salePromotionClosed',
  /** The sale modal was closed in this browsing session (session storage). */
  saleModalClosed: 'saleModalClosed',
  orderPurchaseSource: 'orderPurchaseSource',
  coupon: 'coupon',
  orgOnboardingDoneSteps: 'orgOnboardingDoneSteps',
  browserFingerprint: 'browserFingerprint',
} as const;

/** Cookie acceptance and terms default to false, CCPA to true. */
export const CONSENT_DEFAULTS = { cookies: false, terms: false, ccpa: true } as const;

export const COOKIE_NAMES = {
  /** Strict-privacy (privacy opt-out) preference, "true" or "false"; never expires. */
  strictPrivate: 'tinyStrictPrivate',
} as const;

// --- Enumerations of app-shell 3 ---

export const ENVIRONMENTS = ['develop', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const TWO_FACTOR_MODES = { disabled: 0, totp: 1, authy: 2 } as const;

/** User status bit flags. */
export const USER_STATUS_FLAGS = { noAffiliate: 4, noMailings: 8, hideInvoices: 16 } as const;
export type UserStatusFlag = keyof typeof USER_STATUS_FLAGS;

export function hasUserStatusFlag(status: number, flag: UserStatusFlag): boolean {
  return (status & USER_STATUS_FLAGS[flag]) !== 0;
}

export const ALIAS_STATUSES = [
  'deleted',
  'terminated',
  'archived',
  'active',
  'no_affiliate',
  'can_affiliate',
] as const;
export const URL_STATUSES = ['terminated', 'active', 'inactive'] as const;
export const DOMAIN_STATUSES = ['unknown', 'available', 'taken', 'invalid', 'in cart'] as const;
export const TEAM_ROLES = ['admin', 'member', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
