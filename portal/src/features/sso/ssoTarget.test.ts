import { describe, expect, it } from 'vitest';
import { ssoTargetOf } from './ssoTarget.ts';

describe('ssoTargetOf', () => {
  it('reads a work e-mail or a domain as the domain to sign in by', () => {
    expect(ssoTargetOf(' Ann@Corp.Example.com ')).toEqual({ domain: 'corp.example.com' });
    expect(ssoTargetOf('corp.example.com')).toEqual({ domain: 'corp.example.com' });
  });

  it('reads a bare name as an organization slug', () => {
    expect(ssoTargetOf('acme-corp')).toEqual({ slug: 'acme-corp' });
  });

  it('refuses anything else', () => {
    expect(ssoTargetOf('')).toBeNull();
    expect(ssoTargetOf('ann@')).toBeNull();
    expect(ssoTargetOf('not a name')).toBeNull();
    expect(ssoTargetOf('-acme')).toBeNull();
  });
});
