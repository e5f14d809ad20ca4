import { describe, expect, it } from 'vitest';
import { AuthApiError } from './errors.ts';
import {
  AuthRateLimits,
  DEFAULT_RATE_LIMITS,
  EMAIL_RATE_LIMIT_MESSAGE,
  loadRateLimitSettings,
  REQUEST_RATE_LIMIT_MESSAGE,
} from './rate-limits.ts';

const from = (ip: string) =>
  new Request('http://auth.test/token', { headers: { 'x-forwarded-for': ip } });

function refusal(attempt: () => void): AuthApiError | null {
  try {
    attempt();
    return null;
  } catch (error) {
    if (error instanceof AuthApiError) return error;
    throw error;
  }
}

describe('loadRateLimitSettings', () => {
  it('reads [auth.rate_limit] as the CLI names it, with the CLI’s defaults for the rest', () => {
    const settings = loadRateLimitSettings(
      {},
      { auth: { rate_limit: { token_refresh: 60, sign_in_sign_ups: 10, email_sent: 5 } } },
      {},
    );
    expect(settings).toEqual({
      ...DEFAULT_RATE_LIMITS,
      tokenRefresh: 60,
      signInSignUps: 10,
      emailSent: 5,
    });
  });

  it('lets STACK_AUTH_RATE_LIMIT_* replace config.toml, and tests replace both', () => {
    const settings = loadRateLimitSettings(
      { web3: 1 },
      { auth: { rate_limit: { token_refresh: 60, web3: 7 } } },
      { STACK_AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000', STACK_AUTH_RATE_LIMIT_BURST: '5000' },
    );
    expect(settings).toMatchObject({ tokenRefresh: 1000, burst: 5000, web3: 1 });
    expect(() =>
      loadRateLimitSettings({}, {}, { STACK_AUTH_RATE_LIMIT_EMAIL_SENT: 'many' }),
    ).toThrow(/STACK_AUTH_RATE_LIMIT_EMAIL_SENT/);
    expect(() => loadRateLimitSettings({}, { auth: { rate_limit: { web3: -1 } } }, {})).toThrow(
      /web3/,
    );
  });
});

describe('AuthRateLimits', () => {
  it('holds a burst per address, then refills at the configured number per 5 minutes', () => {
    let now = 0;
    const limits = new AuthRateLimits(
      { ...DEFAULT_RATE_LIMITS, tokenRefresh: 150, burst: 30 },
      () => now,
    );
    for (let i = 0; i < 30; i++) limits.take('token', from('198.51.100.1'));
    const refused = refusal(() => limits.take('token', from('198.51.100.1')));
    expect(refused).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
      message: REQUEST_RATE_LIMIT_MESSAGE,
    });
    // Another address has its own bucket; the same address, another endpoint, too.
    expect(refusal(() => limits.take('token', from('198.51.100.2')))).toBeNull();
    expect(refusal(() => limits.take('verify', from('198.51.100.1')))).toBeNull();
    // 150 per 5 minutes: one more every 2 s.
    now += 1999;
    expect(refusal(() => limits.take('token', from('198.51.100.1')))).not.toBeNull();
    now += 2;
    expect(refusal(() => limits.take('token', from('198.51.100.1')))).toBeNull();
  });

  it('gives anonymous sign-ins their hourly number as the burst', () => {
    const limits = new AuthRateLimits({ ...DEFAULT_RATE_LIMITS, anonymousUsers: 2 }, () => 0);
    limits.take('anonymous', from('198.51.100.3'));
    limits.take('anonymous', from('198.51.100.3'));
    expect(refusal(() => limits.take('anonymous', from('198.51.100.3')))?.status).toBe(429);
  });

  it('counts e-mails for the whole project per hour, and none when sign-ups autoconfirm', () => {
    let now = 0;
    const limits = new AuthRateLimits({ ...DEFAULT_RATE_LIMITS, emailSent: 2 }, () => now);
    limits.takeEmail(false);
    limits.takeEmail(false);
    expect(refusal(() => limits.takeEmail(false))).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: EMAIL_RATE_LIMIT_MESSAGE,
    });
    expect(refusal(() => limits.takeEmail(true))).toBeNull();
    now += 3_600_000;
    expect(refusal(() => limits.takeEmail(false))).toBeNull();
    const none = new AuthRateLimits({ ...DEFAULT_RATE_LIMITS, emailSent: 0 });
    expect(refusal(() => none.takeEmail(true))?.code).toBe('over_email_send_rate_limit');
  });
});
