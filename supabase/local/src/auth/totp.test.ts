import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  GOTRUE_TOTP,
  hotp,
  totp,
  totpUri,
  verifyTotp,
  type TotpAlgorithm,
} from './totp.ts';

const ascii = (text: string) => Buffer.from(text, 'ascii');

// RFC 6238, appendix B: the seed of each algorithm is ASCII "1234567890" repeated to its size.
const RFC6238_SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: ascii('12345678901234567890'),
  sha256: ascii('12345678901234567890123456789012'),
  sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
};

const RFC6238_VECTORS: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('totp', () => {
  it.each(RFC6238_VECTORS)('matches RFC 6238 at T=%i', (seconds, sha1, sha256, sha512) => {
    const options = (algorithm: TotpAlgorithm) => ({ algorithm, digits: 8, periodSeconds: 30 });
    expect(totp(RFC6238_SEEDS.sha1, seconds * 1000, options('sha1'))).toBe(sha1);
    expect(totp(RFC6238_SEEDS.sha256, seconds * 1000, options('sha256'))).toBe(sha256);
    expect(totp(RFC6238_SEEDS.sha512, seconds * 1000, options('sha512'))).toBe(sha512);
  });

  it('matches the HOTP values of RFC 4226, appendix D', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    const codes = expected.map((_, counter) => hotp(RFC6238_SEEDS.sha1, counter, GOTRUE_TOTP));
    expect(codes).toEqual(expected);
  });

  it('agrees with the otpauth package on GoTrue parameters', () => {
    const secret = generateTotpSecret();
    const reference = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret),
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    for (const timestamp of [0, 1_700_000_000_000, Date.now()]) {
      expect(totp(base32Decode(secret), timestamp)).toBe(reference.generate({ timestamp }));
    }
  });

  it('accepts one step of clock skew either way, and no more', () => {
    const secret = base32Decode(generateTotpSecret());
    const now = 1_700_000_015_000;
    const at = (offsetSteps: number) => totp(secret, now + offsetSteps * 30_000);
    expect(verifyTotp(at(0), secret, now)).toBe(true);
    expect(verifyTotp(at(-1), secret, now)).toBe(true);
    expect(verifyTotp(at(1), secret, now)).toBe(true);
    const farCodes = [at(-2), at(2)].filter((code) => ![at(-1), at(0), at(1)].includes(code));
    for (const code of farCodes) expect(verifyTotp(code, secret, now)).toBe(false);
  });

  it('refuses codes of the wrong shape', () => {
    const secret = base32Decode(generateTotpSecret());
    const code = totp(secret, Date.now());
    expect(verifyTotp(code.slice(1), secret, Date.now())).toBe(false);
    expect(verifyTotp(`${code}0`, secret, Date.now())).toBe(false);
    expect(verifyTotp('12a456', secret, Date.now())).toBe(false);
  });
});

describe('base32', () => {
  it('round-trips bytes and reads what otpauth writes', () => {
    const bytes = Buffer.from('hello, authenticator!');
    const encoded = base32Encode(bytes);
    expect(encoded).toBe(OTPAuth.Secret.fromHex(bytes.toString('hex')).base32);
    expect(base32Decode(encoded)).toEqual(bytes);
    expect(base32Decode(encoded.toLowerCase())).toEqual(bytes);
  });

  it('makes 20-byte secrets: 32 characters without padding', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(() => base32Decode('ABC1')).toThrow(/Invalid base32 character "1"/);
  });
});

describe('totpUri', () => {
  it('writes the otpauth URI authenticator apps read', () => {
    const uri = totpUri('Shortlane', 'ada@example.com', 'JBSWY3DPEHPK3PXP');
    expect(uri).toBe(
      'otpauth://totp/Shortlane:ada@example.com?algorithm=SHA1&digits=6&issuer=Shortlane&period=30&secret=JBSWY3DPEHPK3PXP',
    );
    const parsed = OTPAuth.URI.parse(uri);
    expect(parsed).toMatchObject({ issuer: 'Shortlane', label: 'ada@example.com' });
  });

  it('escapes spaces in the issuer as %20', () => {
    expect(totpUri('My App', 'a@b.c', 'AAAA')).toContain('otpauth://totp/My%20App:a@b.c?');
    expect(totpUri('My App', 'a@b.c', 'AAAA')).toContain('issuer=My%20App');
  });
});
