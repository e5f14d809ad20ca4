import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '../src/auth/index.ts';
import type { AuthRateLimitSettings } from '../src/auth/rate-limits.ts';
import { loadConfig } from '../src/config.ts';
import { createGateway, notImplemented } from '../src/gateway.ts';
import { Mailbox } from '../src/mail.ts';
import {
  anonClientAt,
  closeDatabase,
  createConfirmedUser,
  env,
  uniqueEmail,
} from './auth-helpers.ts';

/**
 * GoTrue's abuse limits with their real answers, on an auth service of their own behind a gateway
 * of their own (the shared test stack relaxes its limits): the same database, but limits small
 * enough to reach and a period short enough to wait out. Each case is a client address of its
 * own, which the gateway takes from X-Forwarded-For because the test runner on loopback is its
 * trusted proxy; from any other peer the header is ignored.
 */

/** Three requests per bucket, then one more every 2 s (GoTrue: 30, then N per 5 minutes). */
const BURST = 3;
const REFILL_MS = 2_000;
const PERIOD_SCALE = REFILL_MS / 300_000;
const LIMITS: Partial<AuthRateLimitSettings> = {
  burst: BURST,
  periodScale: PERIOD_SCALE,
  tokenRefresh: 1,
  signInSignUps: 1,
  tokenVerifications: 1,
  // Per minute in GoTrue: 0.2 per scaled minute is one per scaled 5 minutes, as the others.
  mfaChallengeAndVerify: 0.2,
  emailSent: 1_000,
};

const RATE_LIMITED = {
  status: 429,
  code: 'over_request_rate_limit',
  message: 'Request rate limit reached',
};

interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

let pool: pg.Pool;
const servers: Served[] = [];

/** An auth service with `limits` behind a gateway that trusts loopback as its proxy. */
async function serve(limits: Partial<AuthRateLimitSettings>): Promise<Served> {
  const config = loadConfig({ trustedProxies: ['127.0.0.1'] });
  const gateway = createGateway(config, {
    auth: createAuthService({ config, pool, mailer: new Mailbox(), rateLimits: limits }),
    storage: notImplemented,
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const { port } = gateway.address() as AddressInfo;
  const served = {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      }),
  };
  servers.push(served);
  return served;
}

let limited: Served;

beforeAll(async () => {
  const url = new URL(env.DB_URL);
  url.username = 'supabase_auth_admin';
  url.password = 'postgres';
  pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  limited = await serve(LIMITS);
});

afterAll(async () => {
  for (const served of servers) await served.close();
  await pool?.end();
  await closeDatabase();
});

let lastAddress = 0;
/** A client address no other case uses (TEST-NET-3), so every case starts with full buckets. */
const freshAddress = () => `203.0.113.${++lastAddress}`;

const clientFrom = (served: Served, address: string): SupabaseClient =>
  anonClientAt(served.url, { 'x-forwarded-for': address });

const waitForRefill = () => new Promise((resolve) => setTimeout(resolve, REFILL_MS + 300));

/** What a supabase-js auth error says, in the shape the cases compare. */
const answer = (error: { status?: number; code?: string; message: string } | null) =>
  error && { status: error.status, code: error.code, message: error.message };

describe('password sign-in (POST /token?grant_type=password, token_refresh)', () => {
  it('answers 429 once the address has used its burst, and lets it in after the refill', async () => {
    const user = await createConfirmedUser('limit-password');
    const address = freshAddress();
    const client = clientFrom(limited, address);
    const wrong = () => client.auth.signInWithPassword({ email: user.email, password: 'wrong-1' });

    for (let attempt = 0; attempt < BURST; attempt++) {
      expect(answer((await wrong()).error)).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
      });
    }
    // Even the right password is refused now: the limit is on the address, not the account.
    const blocked = await client.auth.signInWithPassword(user);
    expect(answer(blocked.error)).toEqual(RATE_LIMITED);
    // Another address is not affected.
    expect(
      answer((await clientFrom(limited, freshAddress()).auth.signInWithPassword(user)).error),
    ).toBeNull();

    await waitForRefill();
    const after = await client.auth.signInWithPassword(user);
    expect(after.error).toBeNull();
    expect(after.data.session?.access_token).toEqual(expect.any(String));
  });

  it('counts refresh-token grants in the same bucket', async () => {
    const user = await createConfirmedUser('limit-refresh');
    const client = clientFrom(limited, freshAddress());
    const { data, error } = await client.auth.signInWithPassword(user);
    if (error) throw error;
    let refreshToken = data.session.refresh_token;
    for (let attempt = 1; attempt < BURST; attempt++) {
      const refreshed = await client.auth.refreshSession({ refresh_token: refreshToken });
      expect(refreshed.error).toBeNull();
      refreshToken = refreshed.data.session!.refresh_token;
    }
    const refused = await client.auth.refreshSession({ refresh_token: refreshToken });
    expect(answer(refused.error)).toEqual(RATE_LIMITED);
  });
});

describe('TOTP verification (POST /factors/{id}/verify)', () => {
  it('answers 429 after the burst of wrong codes, and takes the right code after the refill', async () => {
    const user = await createConfirmedUser('limit-totp');
    const client = clientFrom(limited, freshAddress());
    const signIn = await client.auth.signInWithPassword(user);
    if (signIn.error) throw signIn.error;
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw enrolled.error;
    const factorId = enrolled.data.id;
    const challenge = await client.auth.mfa.challenge({ factorId });
    if (challenge.error) throw challenge.error;
    const challengeId = challenge.data.id;
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.data.totp.secret) });
    const wrongCode = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');

    for (let attempt = 0; attempt < BURST; attempt++) {
      const { error } = await client.auth.mfa.verify({ factorId, challengeId, code: wrongCode });
      expect(answer(error)).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    }
    const blocked = await client.auth.mfa.verify({ factorId, challengeId, code: totp.generate() });
    expect(answer(blocked.error)).toEqual(RATE_LIMITED);

    await waitForRefill();
    const verified = await client.auth.mfa.verify({ factorId, challengeId, code: totp.generate() });
    expect(verified.error).toBeNull();
    expect(verified.data?.access_token).toEqual(expect.any(String));
  });
});

describe('mails a signed-out visitor can ask for (sign_in_sign_ups)', () => {
  it('limits POST /recover per address, then serves it again after the refill', async () => {
    const client = clientFrom(limited, freshAddress());
    // Unknown addresses: the answer is the same and no mail goes out, yet the request counts.
    const recover = () => client.auth.resetPasswordForEmail(uniqueEmail('limit-recover'));
    for (let attempt = 0; attempt < BURST; attempt++) expect((await recover()).error).toBeNull();
    expect(answer((await recover()).error)).toEqual(RATE_LIMITED);
    await waitForRefill();
    expect((await recover()).error).toBeNull();
  });

  it('limits POST /resend per address, in a bucket of its own', async () => {
    const address = freshAddress();
    const client = clientFrom(limited, address);
    const resend = () => client.auth.resend({ type: 'signup', email: uniqueEmail('limit-resend') });
    for (let attempt = 0; attempt < BURST; attempt++) expect((await resend()).error).toBeNull();
    expect(answer((await resend()).error)).toEqual(RATE_LIMITED);
    // /recover keeps its own bucket for the same address.
    expect((await client.auth.resetPasswordForEmail(uniqueEmail('limit-other'))).error).toBeNull();
    await waitForRefill();
    expect((await resend()).error).toBeNull();
  });
});

describe('the e-mail limit (email_sent, all recipients together)', () => {
  it('refuses the mail beyond the hour’s number with over_email_send_rate_limit', async () => {
    const mails = await serve({ ...LIMITS, burst: 100, emailSent: 2 });
    const users = [
      await createConfirmedUser('limit-mail-1'),
      await createConfirmedUser('limit-mail-2'),
      await createConfirmedUser('limit-mail-3'),
    ];
    const results = [];
    for (const user of users) {
      // From different addresses: this limit does not care where the requests come from.
      const { error } = await clientFrom(mails, freshAddress()).auth.resetPasswordForEmail(
        user.email,
      );
      results.push(answer(error));
    }
    expect(results).toEqual([
      null,
      null,
      { status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' },
    ]);
  });
});

/** A password sign-in sent from `localAddress` with a caller-written X-Forwarded-For. */
function signInFrom(localAddress: string, forwardedFor: string): Promise<number> {
  const body = JSON.stringify({ email: 'nobody@auth-test.example.com', password: 'x' });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: limited.port,
        localAddress,
        method: 'POST',
        path: '/auth/v1/token?grant_type=password',
        headers: {
          apikey: env.SUPABASE_ANON_KEY,
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the client address', () => {
  it('is the socket’s when the peer is no trusted proxy: a forged X-Forwarded-For changes no bucket', async () => {
    // 127.0.0.2 is loopback too, but not the trusted proxy: each request names another client.
    const statuses = [];
    for (let attempt = 0; attempt <= BURST; attempt++)
      statuses.push(await signInFrom('127.0.0.2', freshAddress()));
    expect(statuses).toEqual([...Array<number>(BURST).fill(400), 429]);
    // The trusted proxy's forwarded client still has its own, full bucket.
    expect(await signInFrom('127.0.0.1', freshAddress())).toBe(400);
  });
});
