import { describe, expect, it } from 'vitest';
import { firstErrorPerField } from './rules.ts';
import {
  BACKUP_CODE_FORMAT,
  BACKUP_CODE_REQUIRED,
  backupCodeSchema,
  CURRENT_PASSWORD_REQUIRED,
  passwordChangeSchema,
  TOTP_CODE_FORMAT,
  TOTP_CODE_REQUIRED,
  totpCodeSchema,
} from './two-factor.ts';

function errorsOf(result: { success: boolean; error?: Parameters<typeof firstErrorPerField>[0] }) {
  return result.success || !result.error ? {} : firstErrorPerField(result.error);
}

describe('totpCodeSchema', () => {
  it('takes 6 digits, with the space apps show in the middle', () => {
    expect(totpCodeSchema.parse({ code: '123 456' })).toEqual({ code: '123456' });
  });
  it.each([
    ['', TOTP_CODE_REQUIRED],
    ['   ', TOTP_CODE_REQUIRED],
    ['12345', TOTP_CODE_FORMAT],
    ['1234567', TOTP_CODE_FORMAT],
    ['12a456', TOTP_CODE_FORMAT],
  ])('refuses %j: %s', (code, message) => {
    expect(errorsOf(totpCodeSchema.safeParse({ code }))).toEqual({ code: message });
  });
});

describe('backupCodeSchema', () => {
  it('normalises case, dash and spaces to XXXXX-XXXXX', () => {
    expect(backupCodeSchema.parse({ code: ' abcde 23456 ' })).toEqual({ code: 'ABCDE-23456' });
    expect(backupCodeSchema.parse({ code: 'ABCDE-23456' })).toEqual({ code: 'ABCDE-23456' });
  });
  it.each([
    ['', BACKUP_CODE_REQUIRED],
    ['ABCDE-2345', BACKUP_CODE_FORMAT],
    ['ABCDE-23456-X', BACKUP_CODE_FORMAT],
    ['ABCDE_23456', BACKUP_CODE_FORMAT],
  ])('refuses %j: %s', (code, message) => {
    expect(errorsOf(backupCodeSchema.safeParse({ code }))).toEqual({ code: message });
  });
});

describe('passwordChangeSchema', () => {
  it('needs the current password, a new one of 6 or more, and the same again', () => {
    expect(
      errorsOf(
        passwordChangeSchema.safeParse({
          current_password: '',
          password: 'short',
          password_confirmation: 'short',
        }),
      ),
    ).toEqual({
      current_password: CURRENT_PASSWORD_REQUIRED,
      password: 'The password must be at least 6 characters',
    });
    expect(
      errorsOf(
        passwordChangeSchema.safeParse({
          current_password: 'old-secret',
          password: 'new-secret',
          password_confirmation: 'new-secreT',
        }),
      ),
    ).toEqual({ password_confirmation: 'The password confirmation does not match.' });
    expect(
      passwordChangeSchema.safeParse({
        current_password: 'old-secret',
        password: 'new-secret',
        password_confirmation: 'new-secret',
      }).success,
    ).toBe(true);
  });
});
