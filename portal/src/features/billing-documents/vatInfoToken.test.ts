import { describe, expect, it } from 'vitest';
import { accountFromVatInfoToken, vatInfoToken } from './vatInfoToken.ts';

describe('the vatinfo link token', () => {
  it('names an account and reads back', () => {
    const id = '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21';
    const token = vatInfoToken(id);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(accountFromVatInfoToken(token)).toBe(id);
  });

  it('reads anything else as no account', () => {
    expect(accountFromVatInfoToken('not-base64!')).toBeNull();
    expect(accountFromVatInfoToken(vatInfoToken('someone else'))).toBeNull();
  });
});
