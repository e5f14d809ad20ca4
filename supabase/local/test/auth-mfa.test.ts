import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { anonClient, closeDatabase, database, decodeJwt, signedInClient } from './auth-helpers.ts';
import { authenticator, enroll, userWithVerifiedFactor } from './mfa-helpers.ts';

afterAll(closeDatabase);

describe('auth: TOTP enrollment', () => {
  it('returns a secret, an otpauth URI and an SVG QR code', async () => {
    const { client, user } = await signedInClient('mfa-enroll');
    const factor = await enroll(client);
    expect(factor).toMatchObject({ type: 'totp', friendly_name: 'Authenticator app' });
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(factor.totp.qr_code).not.toContain('#');

    const parsed = OTPAuth.URI.parse(factor.totp.uri);
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect(parsed).toMatchObject({
      issuer: 'Shortlane',
      label: user.email,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect(parsed.secret.base32).toBe(factor.totp.secret);

    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed?.all).toEqual([
      expect.objectContaining({ id: factor.id, status: 'unverified', factor_type: 'totp' }),
    ]);
    expect(listed?.totp).toEqual([]);
  });

  it('refuses a second factor with the same friendly name', async () => {
    const { client } = await signedInClient('mfa-names');
    await enroll(client, 'Phone');
    const { error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(error).toMatchObject({
      status: 422,
      code: 'mfa_factor_name_conflict',
      message: 'A factor with the friendly name "Phone" for this user already exists',
    });
  });
});

describe('auth: TOTP challenge and verification', () => {
  it('raises the session to aal2 with totp in amr', async () => {
    const { client, user } = await signedInClient('mfa-verify');
    const factor = await enroll(client);
    const before = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 240);

    const { data, error } = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: authenticator(factor.totp.secret).generate(),
    });
    expect(error).toBeNull();
    const claims = decodeJwt(data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((entry) => entry.method).sort()).toEqual([
      'password',
      'totp',
    ]);

    const { data: level } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(level?.currentAuthenticationMethods).toContainEqual({
      method: 'totp',
      timestamp: expect.any(Number),
    });

    const { data: listed } = await client.auth.mfa.listFactors();
    expect(listed?.totp).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })]);

    const { rows } = await database().query(
      `select s.aal::text, s.factor_id, array_agg(c.authentication_method order by c.authentication_method) as methods
         from auth.sessions s join auth.mfa_amr_claims c on c.session_id = s.id
        where s.id = $1 group by s.id`,
      [claims.session_id],
    );
    expect(rows).toEqual([{ aal: 'aal2', factor_id: factor.id, methods: ['password', 'totp'] }]);
    expect(data!.user.id).toBe(user.id);
  });

  it('refuses a wrong code', async () => {
    const { client } = await signedInClient('mfa-wrong');
    const factor = await enroll(client);
    const right = authenticator(factor.totp.secret).generate();
    const { error } = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: right === '000000' ? '111111' : '000000',
    });
    expect(error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });
  });

  it('refuses a used challenge and an expired one', async () => {
    const { client } = await signedInClient('mfa-challenge');
    const factor = await enroll(client);
    const totp = authenticator(factor.totp.secret);
    const used = await client.auth.mfa.challenge({ factorId: factor.id });
    await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: used.data!.id,
      code: totp.generate(),
    });
    const replay = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: used.data!.id,
      code: totp.generate(),
    });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const old = await client.auth.mfa.challenge({ factorId: factor.id });
    await database().query(
      `update auth.mfa_challenges set created_at = created_at - interval '10 minutes' where id = $1`,
      [old.data!.id],
    );
    const expired = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: old.data!.id,
      code: totp.generate(),
    });
    expect(expired.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('answers an unknown factor with 404', async () => {
    const { client } = await signedInClient('mfa-unknown');
    const { error } = await client.auth.mfa.challenge({
      factorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });
  });
});

describe('auth: a user with a verified factor', () => {
  it('signs in at aal1 and is told aal2 is next', async () => {
    const { user } = await userWithVerifiedFactor('mfa-login');
    const client = anonClient();
    await client.auth.signInWithPassword({ email: user.email, password: user.password });
    const { data } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  });

  it('needs aal2 to change the password, enroll another factor or unenroll', async () => {
    const { user, factor, totp } = await userWithVerifiedFactor('mfa-guard');
    const client = anonClient();
    await client.auth.signInWithPassword({ email: user.email, password: user.password });

    expect((await client.auth.updateUser({ password: 'another-pass-5' })).error).toMatchObject({
      status: 401,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    });
    expect(
      (await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' })).error,
    ).toMatchObject({ status: 403, code: 'insufficient_aal' });
    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toMatchObject({
      status: 422,
      code: 'insufficient_aal',
      message: 'AAL2 required to unenroll verified factor',
    });

    await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totp.generate() });
    expect((await client.auth.updateUser({ password: 'another-pass-5' })).error).toBeNull();
  });

  it('unenrolls from an aal2 session, taking the session back to aal1', async () => {
    const { client, factor } = await userWithVerifiedFactor('mfa-unenroll');
    const { data: session } = await client.auth.getSession();
    const sessionId = decodeJwt(session.session!.access_token).session_id;

    const { data, error } = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factor.id });
    const { rows } = await database().query(
      `select s.aal::text, s.factor_id,
              (select count(*)::int from auth.mfa_amr_claims c
                where c.session_id = s.id and c.authentication_method = 'totp') as totp_claims
         from auth.sessions s where s.id = $1`,
      [sessionId],
    );
    expect(rows).toEqual([{ aal: 'aal1', factor_id: null, totp_claims: 0 }]);

    const refreshed = await client.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal1');
    const { data: user } = await client.auth.getUser();
    expect(user.user?.factors ?? []).toEqual([]);
  });

  it("ends the user's other aal1 sessions once a factor is verified", async () => {
    const { client, user } = await signedInClient('mfa-others');
    const other = anonClient();
    const { data: otherLogin } = await other.auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    const factor = await enroll(client);
    await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: authenticator(factor.totp.secret).generate(),
    });
    const { error } = await anonClient().auth.refreshSession({
      refresh_token: otherLogin.session!.refresh_token,
    });
    expect(error).toMatchObject({ code: 'refresh_token_not_found' });
  });
});
