import { randomUUID } from 'node:crypto';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { signToken } from '../local/src/jwt.ts';
import {
  anonClient,
  closeDatabase,
  database,
  env,
  serviceClient,
  signedInClient,
} from '../local/test/auth-helpers.ts';

/**
 * The account-delete function over HTTP, as the portal calls it: the password first, then the
 * account and everything it owns are gone (app.delete_user_account, profile-delete.test.ts),
 * its photos too, and the user can no longer sign in.
 */

afterAll(closeDatabase);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function deleteAccount(client: SupabaseClient, body: Record<string, unknown>) {
  const { data, error } = await client.functions.invoke('account-delete', { body });
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    return { status: response.status, body: (await response.json()) as unknown };
  }
  if (error) throw error;
  return { status: 200, body: data as unknown };
}

const userRows = async (userId: string) =>
  Number(
    (await database().query('select count(*) as n from auth.users where id = $1', [userId])).rows[0]
      .n,
  );

describe('account-delete', () => {
  it('asks for the password, and refuses a wrong one without deleting anything', async () => {
    const { client, user } = await signedInClient('delete-wrong');
    expect(await deleteAccount(client, {})).toEqual({
      status: 422,
      body: {
        code: 'validation_failed',
        message: 'The password field is required.',
        errors: { password: ['The password field is required.'] },
      },
    });
    expect(await deleteAccount(client, { password: 'not-my-password' })).toEqual({
      status: 422,
      body: {
        code: 'validation_failed',
        message: 'The password is incorrect.',
        errors: { password: ['The password is incorrect.'] },
      },
    });
    expect(await userRows(user.id)).toBe(1);
  });

  it('refuses guests and impersonation sessions', async () => {
    const { user } = await signedInClient('delete-impersonated');
    const guest = await anonClient().functions.invoke('account-delete', {
      body: { password: user.password },
    });
    expect((guest.error as FunctionsHttpError | null)?.context?.status).toBe(403);

    const impersonation = await signToken(env.SUPABASE_JWT_SECRET, {
      role: 'authenticated',
      aud: 'authenticated',
      sub: user.id,
      email: user.email,
      impersonator: randomUUID(),
      impersonation_id: 1,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const asStaff = await anonClient().functions.invoke('account-delete', {
      body: { password: user.password },
      headers: { Authorization: `Bearer ${impersonation}` },
    });
    expect((asStaff.error as FunctionsHttpError | null)?.context?.status).toBe(403);
    expect(await userRows(user.id)).toBe(1);
  });

  it('with the right password deletes the account, its photos and its sessions', async () => {
    const { client, user, session } = await signedInClient('delete-right');
    const photo = `${user.id}/${randomUUID()}.png`;
    const upload = await client.storage
      .from('avatars')
      .upload(photo, PNG, { contentType: 'image/png' });
    expect(upload.error).toBeNull();
    const photoUrl = client.storage.from('avatars').getPublicUrl(photo).data.publicUrl;
    expect((await fetch(photoUrl)).status).toBe(200);

    expect(await deleteAccount(client, { password: user.password })).toEqual({
      status: 200,
      body: { deleted: true, files_removed: 1 },
    });

    expect(await userRows(user.id)).toBe(0);
    expect((await fetch(photoUrl)).ok).toBe(false);
    const { data: objects } = await serviceClient().storage.from('avatars').list(user.id);
    expect(objects).toEqual([]);
    const signIn = await anonClient().auth.signInWithPassword({
      email: user.email,
      password: user.password,
    });
    expect(signIn.error).toMatchObject({ code: 'invalid_credentials' });
    const refresh = await anonClient().auth.refreshSession({
      refresh_token: session.refresh_token,
    });
    expect(refresh.error).not.toBeNull();
  });
});
