import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { anonClient, env, serviceClient, signedInClient } from '../local/test/auth-helpers.ts';

/**
 * Profile photos in the public `avatars` bucket, through the real Storage API: each user
 * writes, lists and deletes only their own folder; anyone reads a photo by its public address;
 * the bucket takes png and jpeg up to 2 MB; the profile may only point at the user's own photo.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A 1×1 JPEG (JFIF). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const photoName = (userId: string, extension = 'png') => `${userId}/${randomUUID()}.${extension}`;
const avatars = (client: SupabaseClient) => client.storage.from('avatars');

async function uploadPng(client: SupabaseClient, path: string) {
  return avatars(client).upload(path, PNG, { contentType: 'image/png' });
}

describe('avatars bucket: owner', () => {
  it('uploads a photo into their own folder, lists it, and anyone fetches it by its public URL', async () => {
    const { client, user } = await signedInClient('avatar-owner');
    const path = photoName(user.id);
    expect((await uploadPng(client, path)).error).toBeNull();

    const { data: listed } = await avatars(client).list(user.id);
    expect(listed?.map((object) => `${user.id}/${object.name}`)).toEqual([path]);

    const url = avatars(anonClient()).getPublicUrl(path).data.publicUrl;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('replaces and deletes their own photo', async () => {
    const { client, user } = await signedInClient('avatar-replace');
    const path = photoName(user.id);
    await uploadPng(client, path);
    const replaced = await avatars(client).upload(path, PNG, {
      contentType: 'image/png',
      upsert: true,
    });
    expect(replaced.error).toBeNull();
    const { data: removed, error } = await avatars(client).remove([path]);
    expect(error).toBeNull();
    expect(removed).toHaveLength(1);
    expect((await fetch(avatars(anonClient()).getPublicUrl(path).data.publicUrl)).ok).toBe(false);
  });

  it('may not write outside the photo names of their own folder', async () => {
    const { client, user } = await signedInClient('avatar-names');
    for (const path of [
      `${user.id}/photo.png`,
      `${user.id}/${randomUUID()}.svg`,
      `${user.id}/nested/${randomUUID()}.png`,
      `${randomUUID()}.png`,
    ]) {
      const { error } = await uploadPng(client, path);
      expect(error, path).toMatchObject({ message: 'new row violates row-level security policy' });
    }
  });

  it('is held to real png or jpeg files of at most 2 MB by the bucket', async () => {
    const { client, user } = await signedInClient('avatar-limits');
    const text = await avatars(client).upload(photoName(user.id), 'not an image', {
      contentType: 'text/plain',
    });
    expect(text.error).toMatchObject({ statusCode: '415' });
    // The bytes must be the image they claim to be: a page or a script sent as png is refused.
    for (const spoof of ['<svg onload="alert(1)"/>', '<html><script>alert(1)</script>']) {
      const refused = await avatars(client).upload(photoName(user.id), Buffer.from(spoof), {
        contentType: 'image/png',
      });
      expect(refused.error, spoof).toMatchObject({
        statusCode: '415',
        message: 'mime type image/png is not supported',
      });
    }
    const oversized = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG.length)]);
    const large = await avatars(client).upload(photoName(user.id), oversized, {
      contentType: 'image/png',
    });
    expect(large.error).toMatchObject({ statusCode: '413' });
    expect((await avatars(client).list(user.id)).data).toEqual([]);
    // The refusals leave the client's connection fit for the next upload; real photos pass.
    const path = photoName(user.id);
    expect((await uploadPng(client, path)).error).toBeNull();
    const jpegPath = photoName(user.id, 'jpg');
    const jpeg = await avatars(client).upload(jpegPath, JPEG, { contentType: 'image/jpeg' });
    expect(jpeg.error).toBeNull();
    const listed = (await avatars(client).list(user.id)).data?.map((o) => `${user.id}/${o.name}`);
    expect(listed?.sort()).toEqual([path, jpegPath].sort());
    const { data: bucket } = await serviceClient().storage.getBucket('avatars');
    expect(bucket).toMatchObject({
      public: true,
      file_size_limit: 2 * 1024 * 1024,
      allowed_mime_types: ['image/png', 'image/jpeg'],
    });
  });
});

describe('avatars bucket: others', () => {
  it("a stranger can neither write into, list nor delete from someone else's folder", async () => {
    const owner = await signedInClient('avatar-victim');
    const stranger = await signedInClient('avatar-stranger');
    const path = photoName(owner.user.id);
    await uploadPng(owner.client, path);

    const intrusion = await uploadPng(stranger.client, photoName(owner.user.id));
    expect(intrusion.error).toMatchObject({
      message: 'new row violates row-level security policy',
    });
    expect((await avatars(stranger.client).list(owner.user.id)).data).toEqual([]);
    const { data: removed } = await avatars(stranger.client).remove([path]);
    expect(removed).toEqual([]);
    expect((await avatars(owner.client).list(owner.user.id)).data).toHaveLength(1);
  });

  it('a guest can read a photo but not upload one', async () => {
    const owner = await signedInClient('avatar-guest-read');
    const { error } = await uploadPng(anonClient(), photoName(owner.user.id));
    expect(error).toMatchObject({ message: 'new row violates row-level security policy' });
  });
});

describe('profiles.photo_url', () => {
  const publicUrl = (path: string) =>
    `${env.SUPABASE_URL}/storage/v1/object/public/avatars/${path}`;

  it("takes the public address of one of the user's own photos, or nothing", async () => {
    const { client, user } = await signedInClient('avatar-profile');
    const own = publicUrl(photoName(user.id));
    const update = (photo_url: string | null) =>
      client.from('profiles').update({ photo_url }).eq('id', user.id).select('photo_url');
    expect((await update(own)).data).toEqual([{ photo_url: own }]);
    expect((await update(null)).data).toEqual([{ photo_url: null }]);

    for (const other of [
      'https://tracker.example/pixel.png',
      publicUrl(photoName(randomUUID())),
      publicUrl(`${user.id}/photo.gif`),
    ]) {
      const { error } = await update(other);
      expect(error, other).toMatchObject({ code: '23514' });
    }
    const { data } = await serviceClient()
      .from('profiles')
      .select('photo_url')
      .eq('id', user.id)
      .single();
    expect(data).toEqual({ photo_url: null });
  });
});
