import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_SECRET, SANDBOX_SITEKEY } from '../captcha-sandbox.ts';
import { stripeSandboxEnv } from '../stripe-sandbox/env.ts';
import { paddleSandboxEnv } from '../paddle-sandbox/env.ts';
import { registrarSandboxEnv } from '../registrar-sandbox/env.ts';
import {
  dotEnvNames,
  LOCAL_FUNCTION_DEFAULTS,
  localFunctionDefaults,
  localFunctionEnv,
  localShortUrlBase,
} from './local-env.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dotEnv(text: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-local-env-'));
  made.push(dir);
  const file = path.join(dir, '.env');
  if (text !== null) fs.writeFileSync(file, text);
  return file;
}

describe('localFunctionEnv', () => {
  it('gives the sandbox bot check, its test keys and a click salt when nothing sets them', () => {
    expect(localFunctionEnv(dotEnv(null), LOCAL_FUNCTION_DEFAULTS, {})).toEqual(
      LOCAL_FUNCTION_DEFAULTS,
    );
    expect(LOCAL_FUNCTION_DEFAULTS).toMatchObject({
      BOT_CHECK_PROVIDER: 'sandbox',
      HCAPTCHA_SITEKEY: SANDBOX_SITEKEY,
      HCAPTCHA_SECRET: SANDBOX_SECRET,
      CLICK_IP_SALT: expect.any(String),
    });
  });

  it('leaves every name functions/.env sets to the file', () => {
    const file = dotEnv(
      '# real keys\nBOT_CHECK_PROVIDER=hcaptcha\nexport HCAPTCHA_SECRET="0xabc"\n  CLICK_IP_SALT = s\n',
    );
    const env = localFunctionEnv(file, LOCAL_FUNCTION_DEFAULTS, {});
    expect(env).not.toHaveProperty('BOT_CHECK_PROVIDER');
    expect(env).not.toHaveProperty('HCAPTCHA_SECRET');
    expect(env).not.toHaveProperty('CLICK_IP_SALT');
    expect(env.HCAPTCHA_SITEKEY).toBe(SANDBOX_SITEKEY);
  });

  it("passes on the stack environment's own value, never replacing it", () => {
    const env = localFunctionEnv(dotEnv(''), LOCAL_FUNCTION_DEFAULTS, {
      BOT_CHECK_WHITELIST: '',
      GUEST_LINK_RATE_LIMIT: '1000/1h',
    });
    expect(env.BOT_CHECK_WHITELIST).toBe('');
    expect(env.GUEST_LINK_RATE_LIMIT).toBe('1000/1h');
    expect(env.BOT_CHECK_PROVIDER).toBe('sandbox');
  });
});

describe('short links on the local stack', () => {
  it("are served over http on the gateway's own port", () => {
    expect(localShortUrlBase('http://127.0.0.1:54321')).toBe('http://{domain}:54321');
    expect(localShortUrlBase('http://127.0.0.1:25321/')).toBe('http://{domain}:25321');
    expect(localFunctionDefaults('http://127.0.0.1:25321')).toEqual({
      ...LOCAL_FUNCTION_DEFAULTS,
      SHORT_URL_BASE: 'http://{domain}:25321',
      ...stripeSandboxEnv('http://127.0.0.1:25321'),
      ...paddleSandboxEnv('http://127.0.0.1:25321'),
      ...registrarSandboxEnv('http://127.0.0.1:25321'),
    });
  });

  it("point billing type 1 at the stack's Stripe sandbox with its test-mode secrets", () => {
    expect(localFunctionDefaults('http://127.0.0.1:25321')).toMatchObject({
      STRIPE_API_BASE: 'http://127.0.0.1:25321/sandbox/stripe',
      STRIPE_SECRET_KEY: expect.stringMatching(/^sk_test_/),
      STRIPE_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/),
    });
  });

  it("point billing type 2 at the stack's Paddle sandbox with its sandbox credentials", () => {
    expect(localFunctionDefaults('http://127.0.0.1:25321')).toMatchObject({
      PADDLE_API_BASE: 'http://127.0.0.1:25321/sandbox/paddle',
      PADDLE_API_KEY: expect.stringMatching(/^pdl_sdbx_apikey_/),
      PADDLE_WEBHOOK_SECRET: expect.stringMatching(/^pdl_ntfset_/),
    });
  });

  it("point domain purchases at the stack's Name.com sandbox with its credentials", () => {
    expect(localFunctionDefaults('http://127.0.0.1:25321')).toMatchObject({
      REGISTRAR_API_URL: 'http://127.0.0.1:25321/sandbox/registrar',
      REGISTRAR_USERNAME: expect.stringMatching(/-test$/),
      REGISTRAR_TOKEN: expect.any(String),
    });
  });

  it('leave SHORT_URL_BASE to functions/.env or the stack environment when they set it', () => {
    const defaults = localFunctionDefaults('http://127.0.0.1:54321');
    expect(
      localFunctionEnv(dotEnv('SHORT_URL_BASE=https://{domain}\n'), defaults, {}),
    ).not.toHaveProperty('SHORT_URL_BASE');
    expect(
      localFunctionEnv(dotEnv(''), defaults, { SHORT_URL_BASE: 'https://{domain}:8443' })
        .SHORT_URL_BASE,
    ).toBe('https://{domain}:8443');
  });
});

describe('dotEnvNames', () => {
  it('reads assignments, with or without export, and skips comments and blank lines', () => {
    expect(dotEnvNames('A=1\n# B=2\n\nexport C = 3\r\nnot a line\n_D=\n')).toEqual(
      new Set(['A', 'C', '_D']),
    );
  });
});
