import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  loginSchema,
  passwordConfirmSchema,
  passwordResetRequestSchema,
  passwordResetSchema,
  registerSchema,
} from './auth.ts';
import { firstErrorPerField } from './rules.ts';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : firstErrorPerField(result.error);
}

describe('auth schemas (app-shell 2 and 5)', () => {
  it('logs in with any non-empty password', () => {
    expect(loginSchema.parse({ email: 'ada@example.com', password: 'x' })).toEqual({
      email: 'ada@example.com',
      password: 'x',
    });
    expect(errorsOf(loginSchema, { email: 'nope' })).toEqual({
      email: 'The email must be a valid email address.',
      password: 'The password field is required.',
    });
  });

  it("registers only with 6 characters or more: 'The password must be at least 6 characters'", () => {
    expect(errorsOf(registerSchema, { email: 'ada@example.com', password: '12345' })).toEqual({
      password: 'The password must be at least 6 characters',
    });
    expect(registerSchema.safeParse({ email: 'ada@example.com', password: '123456' }).success).toBe(
      true,
    );
  });

  it('asks for an e-mail to reset and a matching new password', () => {
    expect(errorsOf(passwordResetRequestSchema, {})).toEqual({
      email: 'The email field is required.',
    });
    expect(
      errorsOf(passwordResetSchema, { password: 'secret1', password_confirmation: 'secret2' }),
    ).toEqual({ password_confirmation: 'The password confirmation does not match.' });
    expect(
      errorsOf(passwordResetSchema, { password: 'short', password_confirmation: 'short' }),
    ).toEqual({ password: 'The password must be at least 6 characters' });
    expect(
      passwordResetSchema.safeParse({ password: 'secret1', password_confirmation: 'secret1' })
        .success,
    ).toBe(true);
  });

  it('reports confirm-password errors on the password field', () => {
    expect(errorsOf(passwordConfirmSchema, { password: '' })).toEqual({
      password: 'The password field is required.',
    });
  });
});
