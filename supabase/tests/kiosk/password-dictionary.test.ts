import { AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../../local/test/auth-helpers.ts';
import { uniqueSuffix, useDatabase } from '../support/index.ts';

/**
 * password_dictionary as users meet it: Auth refuses a dictionary word as a new password, at
 * sign-up and at a password change, with GoTrue's weak_password answer (reason "pwned", as for a
 * leaked password), whatever its letter case. Driven with supabase-js, as the portal does.
 */
const pool = useDatabase();
const word = `kiosk${uniqueSuffix()}`;
const DICTIONARY_MESSAGE =
  'Password is known to be weak and easy to guess, please choose a different one.';

beforeAll(async () => {
  await pool.query('insert into public.password_dictionary (word) values ($1)', [word]);
});

afterAll(async () => {
  await pool.query('delete from public.password_dictionary where word = $1', [word]);
});

function expectDictionaryRefusal(error: unknown) {
  expect(error).toBeInstanceOf(AuthWeakPasswordError);
  const weak = error as AuthWeakPasswordError;
  expect({
    status: weak.status,
    code: weak.code,
    message: weak.message,
    reasons: weak.reasons,
  }).toEqual({
    status: 422,
    code: 'weak_password',
    message: DICTIONARY_MESSAGE,
    reasons: ['pwned'],
  });
}

describe('the password dictionary', () => {
  it('refuses a dictionary word at sign-up, in any letter case, and creates no user', async () => {
    const email = uniqueEmail('dictionary');
    const { data, error } = await anonClient().auth.signUp({ email, password: word.toUpperCase() });
    expectDictionaryRefusal(error);
    expect(data.user).toBeNull();
    const { rows } = await pool.query('select 1 from auth.users where email = $1', [email]);
    expect(rows).toEqual([]);
  });

  it('accepts a password that is not in the dictionary', async () => {
    const { data, error } = await anonClient().auth.signUp({
      email: uniqueEmail('dictionary-ok'),
      password: `${word}-but-longer`,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toEqual(expect.any(String));
  });

  it('refuses a dictionary word as a new password, and keeps the old one', async () => {
    const email = uniqueEmail('dictionary-change');
    const password = `Old-${uniqueSuffix()}`;
    const created = await serviceClient().auth.admin.createUser({
      email,
      password,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const client = anonClient();
    expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();

    const { error } = await client.auth.updateUser({ password: word });
    expectDictionaryRefusal(error);
    const again = await anonClient().auth.signInWithPassword({ email, password });
    expect(again.error).toBeNull();
  });
});
