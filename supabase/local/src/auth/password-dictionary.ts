import type { Db } from './db.ts';
import { WeakPasswordError } from './errors.ts';

/**
 * The kiosk's password dictionary (public.password_dictionary): words nobody may choose as a
 * password, at sign-up or when changing it. A hit is answered as GoTrue answers a password found
 * in a breach list (leaked-password protection): 422 weak_password, reason "pwned", its message.
 *
 * Hosted Supabase Auth cannot call this: none of its hooks sees a new password (the "password
 * verification attempt" hook only learns whether a sign-in's password was right). There, route
 * sign-up and password changes through an edge function that checks the dictionary first, and
 * turn on leaked-password protection.
 */
export const DICTIONARY_PASSWORD_MESSAGE =
  'Password is known to be weak and easy to guess, please choose a different one.';

const UNDEFINED_TABLE = '42P01';

export async function refuseDictionaryPassword(db: Db, password: string): Promise<void> {
  if (password === '') return;
  let found: boolean;
  try {
    const { rows } = await db.query<{ found: boolean }>(
      'select exists (select 1 from public.password_dictionary where word = lower($1)) as found',
      [password],
    );
    found = rows[0]?.found === true;
  } catch (error) {
    // A database without the kiosk's tables (an auth-only test database) has no dictionary.
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return;
    throw error;
  }
  if (found) throw new WeakPasswordError(DICTIONARY_PASSWORD_MESSAGE, ['pwned']);
}
