import { unwrap } from '../../data/unwrap.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import type { CheckedPhoto } from './photoFile.ts';

/** Storage bucket of profile photos (public; each user writes only their own folder). */
export const AVATARS_BUCKET = 'avatars';

export async function saveName(supabase: PortalSupabase, userId: string, name: string) {
  unwrap(await supabase.from('profiles').update({ name }).eq('id', userId).select('id').single());
}

async function photoPaths(supabase: PortalSupabase, folder: string): Promise<string[]> {
  const { data, error } = await supabase.storage.from(AVATARS_BUCKET).list(folder);
  if (error) throw error;
  return data.map((object) => `${folder}/${object.name}`);
}

async function removePaths(supabase: PortalSupabase, paths: string[]) {
  if (paths.length === 0) return;
  const { error } = await supabase.storage.from(AVATARS_BUCKET).remove(paths);
  if (error) throw error;
}

/**
 * Stores a new photo in an avatars folder (a user's `<user id>`, a team's `teams/<team id>`)
 * and points its owner at it with setUrl. Each photo gets a new name, so no cache keeps showing
 * the old one; the old files go once the owner moved on.
 */
export async function replaceFolderPhoto(
  supabase: PortalSupabase,
  folder: string,
  photo: CheckedPhoto,
  setUrl: (url: string) => Promise<void>,
): Promise<string> {
  const path = `${folder}/${crypto.randomUUID()}.${photo.extension}`;
  const bucket = supabase.storage.from(AVATARS_BUCKET);
  const { error } = await bucket.upload(path, photo.file, {
    contentType: photo.contentType,
    cacheControl: '31536000',
  });
  if (error) throw error;
  const url = bucket.getPublicUrl(path).data.publicUrl;
  try {
    await setUrl(url);
  } catch (failure) {
    await removePaths(supabase, [path]).catch(() => undefined);
    throw failure;
  }
  const stale = (await photoPaths(supabase, folder)).filter((candidate) => candidate !== path);
  await removePaths(supabase, stale);
  return url;
}

/** Clears the owner's photo with clearUrl, then deletes the folder's stored photos. */
export async function removeFolderPhotos(
  supabase: PortalSupabase,
  folder: string,
  clearUrl: () => Promise<void>,
): Promise<void> {
  await clearUrl();
  await removePaths(supabase, await photoPaths(supabase, folder));
}

/** The profile photo: the user's own folder. */
export function replacePhoto(
  supabase: PortalSupabase,
  userId: string,
  photo: CheckedPhoto,
): Promise<string> {
  return replaceFolderPhoto(supabase, userId, photo, (url) => setPhotoUrl(supabase, userId, url));
}

/** Points the profile at a photo, or at none; the row must be the user's own. */
async function setPhotoUrl(
  supabase: PortalSupabase,
  userId: string,
  url: string | null,
): Promise<void> {
  unwrap(
    await supabase
      .from('profiles')
      .update({ photo_url: url })
      .eq('id', userId)
      .select('id')
      .single(),
  );
}

/** Clears the profile's photo, then deletes the user's stored photos. */
export function removePhoto(supabase: PortalSupabase, userId: string): Promise<void> {
  return removeFolderPhotos(supabase, userId, () => setPhotoUrl(supabase, userId, null));
}
