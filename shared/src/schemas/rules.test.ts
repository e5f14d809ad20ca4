import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  checkWith,
  emailField,
  firstErrorPerField,
  formBoolean,
  optionalText,
  requiredText,
} from './rules.ts';

describe('schema rules', () => {
  it('reports a validation function message as the issue', () => {
    const even = z
      .number()
      .superRefine(checkWith((n: number) => (n % 2 === 0 ? null : 'Must be even.')));
    expect(even.safeParse(2).success).toBe(true);
    expect(even.safeParse(3).error?.issues[0]?.message).toBe('Must be even.');
  });

  it('treats missing, non-text and blank required text alike', () => {
    const field = requiredText('The thing field is required.');
    for (const input of [undefined, null, 7, '', '   ']) {
      expect(field.safeParse(input).error?.issues[0]?.message, String(input)).toBe(
        'The thing field is required.',
      );
    }
    expect(field.parse('  kept  ')).toBe('kept');
  });

  it('turns missing and blank optional text into null', () => {
    expect(optionalText().parse(undefined)).toBeNull();
    expect(optionalText().parse('  ')).toBeNull();
    expect(optionalText().parse(' x ')).toBe('x');
  });

  it('checks e-mail addresses', () => {
    expect(emailField().parse(' ada@example.com ')).toBe('ada@example.com');
    expect(emailField().safeParse('').error?.issues[0]?.message).toBe(
      'The email field is required.',
    );
    expect(emailField().safeParse('ada@').error?.issues[0]?.message).toBe(
      'The email must be a valid email address.',
    );
  });

  it('reads booleans from forms', () => {
    expect(formBoolean().parse(false)).toBe(false);
    expect(formBoolean().parse('true')).toBe(true);
    expect(formBoolean().parse('0')).toBe(false);
    expect(formBoolean().safeParse('maybe').success).toBe(false);
  });

  it('keeps the first message per dotted field path, form-level issues under form', () => {
    const schema = z
      .object({
        a: z.string().min(2, 'first').min(3, 'second'),
        list: z.array(z.string().min(2, 'short')),
      })
      .superRefine((_value, ctx) => ctx.addIssue({ code: 'custom', message: 'whole form' }));
    const result = schema.safeParse({ a: 'x', list: ['ok', 'y'] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(firstErrorPerField(result.error)).toEqual({
      a: 'first',
      'list.1': 'short',
      form: 'whole form',
    });
    const formLevel = schema.safeParse({ a: 'abc', list: [] });
    expect(formLevel.success ? null : firstErrorPerField(formLevel.error)).toEqual({
      form: 'whole form',
    });
  });
});
