import type { Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { testAccessToken } from '../../test/services.ts';
import { assuranceLevel, secondFactorDue } from './assurance.ts';
import { sessionWith, verifiedFactor } from './testing.ts';

const asSession = (body: ReturnType<typeof sessionWith>) => body as unknown as Session;

describe('secondFactorDue', () => {
  it('is due for a password-only session of a user with a verified factor', () => {
    expect(secondFactorDue(asSession(sessionWith('aal1', [verifiedFactor])))).toBe(true);
  });
  it('is settled at aal2, without a verified factor, and without a session', () => {
    expect(secondFactorDue(asSession(sessionWith('aal2', [verifiedFactor])))).toBe(false);
    expect(secondFactorDue(asSession(sessionWith('aal1', [])))).toBe(false);
    expect(
      secondFactorDue(
        asSession(sessionWith('aal1', [{ ...verifiedFactor, status: 'unverified' }])),
      ),
    ).toBe(false);
    expect(secondFactorDue(null)).toBe(false);
  });
  it('never asks a staff member impersonating the user', () => {
    const body = sessionWith('aal1', [verifiedFactor]);
    const impersonated = {
      ...body,
      access_token: testAccessToken({
        sub: body.user.id,
        impersonator: 'f1d2d2f9-0000-4000-8000-000000000001',
        impersonation_id: 7,
      }),
    };
    expect(secondFactorDue(asSession(impersonated))).toBe(false);
  });
});

describe('assuranceLevel', () => {
  it('reads the aal claim, or null from a token that is not one', () => {
    expect(assuranceLevel(testAccessToken({ aal: 'aal2' }))).toBe('aal2');
    expect(assuranceLevel('not-a-token')).toBeNull();
  });
});
