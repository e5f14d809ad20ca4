import { describe, expect, inject, it } from 'vitest';
import {
  createCaptchaSandbox,
  SANDBOX_SECRET,
  SANDBOX_SITEKEY,
  SANDBOX_TOKEN_LIFETIME_MS,
} from '../src/captcha-sandbox.ts';

const env = inject('stackEnv');
const sandboxUrl = `${env.SUPABASE_URL}/sandbox/hcaptcha`;

interface SiteverifyAnswer {
  success: boolean;
  challenge_ts?: string;
  hostname?: string;
  credit?: boolean;
  'error-codes'?: string[];
}

type Fetch = (path: string, init: RequestInit) => Promise<Response>;
const overHttp: Fetch = (path, init) => fetch(`${sandboxUrl}${path}`, init);

async function solve(send: Fetch, sitekey = SANDBOX_SITEKEY, origin?: string): Promise<string> {
  const response = await send('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ sitekey }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { response: string; expires_in_ms: number };
  expect(body.expires_in_ms).toBe(SANDBOX_TOKEN_LIFETIME_MS);
  return body.response;
}

async function siteverify(send: Fetch, fields: Record<string, string>) {
  const response = await send('/siteverify', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  return (await response.json()) as SiteverifyAnswer;
}

describe('captcha sandbox through the gateway', () => {
  it('issues an opaque P1_ token that verifies once, then is refused as already seen', async () => {
    const token = await solve(overHttp, SANDBOX_SITEKEY, 'http://localhost:5173');
    expect(token).toMatch(/^P1_[A-Za-z0-9_.-]+$/);
    const first = await siteverify(overHttp, {
      secret: SANDBOX_SECRET,
      response: token,
      remoteip: '203.0.113.7',
      sitekey: SANDBOX_SITEKEY,
    });
    expect(first).toEqual({
      success: true,
      challenge_ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      hostname: 'localhost',
      credit: false,
    });
    expect(Date.now() - Date.parse(first.challenge_ts ?? '')).toBeLessThan(60_000);
    const again = await siteverify(overHttp, { secret: SANDBOX_SECRET, response: token });
    expect(again).toEqual({ success: false, 'error-codes': ['invalid-or-already-seen-response'] });
  });

  it('answers with the CORS headers the portal widget needs, without an apikey', async () => {
    const preflight = await fetch(`${sandboxUrl}/token`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(200);
    const response = await overHttp('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `sitekey=${SANDBOX_SITEKEY}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a missing or wrong secret before looking at the token', async () => {
    const token = await solve(overHttp);
    expect(await siteverify(overHttp, { response: token })).toEqual({
      success: false,
      'error-codes': ['missing-input-secret'],
    });
    expect(await siteverify(overHttp, { secret: '0xdeadbeef', response: token })).toEqual({
      success: false,
      'error-codes': ['invalid-input-secret'],
    });
    // Refusing on the secret did not use the token up.
    expect(await siteverify(overHttp, { secret: SANDBOX_SECRET, response: token })).toMatchObject({
      success: true,
    });
  });

  it('refuses a missing, forged or tampered response token', async () => {
    expect(await siteverify(overHttp, { secret: SANDBOX_SECRET })).toEqual({
      success: false,
      'error-codes': ['missing-input-response'],
    });
    const token = await solve(overHttp);
    const [payload, signature] = token.slice(3).split('.');
    const tampered = `P1_${payload}x.${signature}`;
    for (const response of ['10000000-aaaa-bbbb-cccc-000000000001', 'P1_abc.def', tampered])
      expect(await siteverify(overHttp, { secret: SANDBOX_SECRET, response })).toEqual({
        success: false,
        'error-codes': ['invalid-input-response'],
      });
  });

  it('refuses a sitekey that is not the secret’s', async () => {
    const token = await solve(overHttp);
    expect(
      await siteverify(overHttp, {
        secret: SANDBOX_SECRET,
        response: token,
        sitekey: '20000000-ffff-ffff-ffff-000000000002',
      }),
    ).toEqual({ success: false, 'error-codes': ['sitekey-secret-mismatch'] });
  });

  it('refuses a siteverify body that is not form-encoded, and unknown sitekeys at /token', async () => {
    const json = await overHttp('/siteverify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: SANDBOX_SECRET, response: 'P1_x.y' }),
    });
    expect(await json.json()).toEqual({ success: false, 'error-codes': ['bad-request'] });
    const unknown = await overHttp('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sitekey: 'not-a-sitekey' }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ success: false, 'error-codes': ['invalid-sitekey'] });
    expect((await fetch(`${sandboxUrl}/siteverify`)).status).toBe(405);
    expect((await overHttp('/nope', { method: 'POST' })).status).toBe(404);
  });
});

describe('captcha sandbox with a controlled clock', () => {
  function sandboxAt(
    clock: { now: number },
    sites = [
      { sitekey: SANDBOX_SITEKEY, secret: SANDBOX_SECRET },
      { sitekey: 'site-b', secret: 'secret-b' },
    ],
  ) {
    const handler = createCaptchaSandbox({ now: () => clock.now, sites });
    const send: Fetch = (path, init) => handler(new Request(`http://sandbox.test${path}`, init));
    return send;
  }

  it('accepts a token up to 299 999 ms after issue and refuses it from then on', async () => {
    const clock = { now: Date.parse('2026-11-22T10:00:00Z') };
    const send = sandboxAt(clock);
    const early = await solve(send);
    const late = await solve(send);
    clock.now += SANDBOX_TOKEN_LIFETIME_MS - 1;
    expect(await siteverify(send, { secret: SANDBOX_SECRET, response: early })).toEqual({
      success: true,
      challenge_ts: '2026-11-22T10:00:00.000Z',
      hostname: 'localhost',
      credit: false,
    });
    clock.now += 1;
    expect(await siteverify(send, { secret: SANDBOX_SECRET, response: late })).toEqual({
      success: false,
      'error-codes': ['invalid-or-already-seen-response'],
    });
  });

  it('still refuses a used token after it has expired and been forgotten', async () => {
    const clock = { now: 1_000_000 };
    const send = sandboxAt(clock);
    const token = await solve(send);
    expect((await siteverify(send, { secret: SANDBOX_SECRET, response: token })).success).toBe(
      true,
    );
    clock.now += SANDBOX_TOKEN_LIFETIME_MS * 3;
    await solve(send); // any request may prune the memory of used tokens
    expect(await siteverify(send, { secret: SANDBOX_SECRET, response: token })).toEqual({
      success: false,
      'error-codes': ['invalid-or-already-seen-response'],
    });
  });

  it('binds a token to the sitekey it was issued for', async () => {
    const clock = { now: 1_000_000 };
    const send = sandboxAt(clock);
    const forB = await solve(send, 'site-b');
    expect(await siteverify(send, { secret: SANDBOX_SECRET, response: forB })).toEqual({
      success: false,
      'error-codes': ['sitekey-secret-mismatch'],
    });
    expect(await siteverify(send, { secret: 'secret-b', response: forB })).toMatchObject({
      success: true,
    });
  });

  it('does not accept tokens another sandbox instance issued', async () => {
    const clock = { now: 1_000_000 };
    const token = await solve(sandboxAt(clock));
    expect(await siteverify(sandboxAt(clock), { secret: SANDBOX_SECRET, response: token })).toEqual(
      { success: false, 'error-codes': ['invalid-input-response'] },
    );
  });
});
