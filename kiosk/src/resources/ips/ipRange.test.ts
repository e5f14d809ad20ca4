import { describe, expect, it } from 'vitest';
import { ipRangeProblem } from './ipRange.ts';

describe('ipRangeProblem', () => {
  it('accepts single addresses and ranges of both families', () => {
    for (const value of [
      '203.0.113.7',
      '203.0.113.0/24',
      '0.0.0.0/0',
      '2001:db8::1',
      '2001:db8::/32',
      '::ffff:192.0.2.1',
      ' 198.51.100.7/32 ',
    ]) {
      expect(ipRangeProblem(value), value).toBeNull();
    }
  });

  it('refuses text that is no address', () => {
    for (const value of [
      '203.0.113',
      '256.1.1.1',
      'evil.example',
      '2001:db8:::1',
      '1.2.3.4/24/1',
    ]) {
      expect(ipRangeProblem(value), value).toBe('This is not an IP address or range.');
    }
    expect(ipRangeProblem('')).toBe('Enter an IP address or a range such as 203.0.113.0/24.');
  });

  it('refuses prefixes out of range and host bits past the prefix, as Postgres does', () => {
    expect(ipRangeProblem('203.0.113.0/33')).toBe("The range's prefix length must be 0 to 32.");
    expect(ipRangeProblem('2001:db8::/129')).toBe("The range's prefix length must be 0 to 128.");
    expect(ipRangeProblem('203.0.113.5/24')).toMatch(/bits set beyond the prefix/);
    expect(ipRangeProblem('2001:db8::1/64')).toMatch(/bits set beyond the prefix/);
  });
});
