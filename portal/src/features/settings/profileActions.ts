import { unwrap } from '../../data/unwrap.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import type { CheckedPhoto } from './photoFile.ts';

/** Storage bucket of profile photos (public; each user writes only their own folder). */
export const AVATARS_BUCKET = 'avatars';

export async function saveName(supabase: PortalSupabase, userId: string, name: string) {
  unwrap(await supabase.from('profiles').update({ name }).eq('id', userId).select('id').single());
}

/**
 * Whose photo: the Storage folder its files live in (policies let the writer in) and how the
 * row that shows it points at a file, or at none. A user's own, or an organization's.
 */
export interface PhotoHolder {
  folder: string;
  setUrl: (url: string | null) => Promise<void>;
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
 * Stores a new photo in the holder's folder and points the holder at it. Each photo gets a new
 * name, so no cache keeps showing the old one; the old files go once the holder moved on.
 */
export async function replaceStoredPhoto(
  supabase: PortalSupabase,
  holder: PhotoHolder,
  photo: CheckedPhoto,
): Promise<string> {
  const path = `${holder.folder}/${crypto.randomUUID()}.${photo.extension}`;
  const bucket = supabase.storage.from(AVATARS_BUCKET);
  const { error } = await bucket.upload(path, photo.file, {
    contentType: photo.contentType,
    cacheControl: '31536000',
  });
  if (error) throw error;
  const url = bucket.getPublicUrl(path).data.publicUrl;
  try {
    await holder.setUrl(url);
  } catch (failure) {
    await removePaths(supabase, [path]).catch(() => undefined);
    throw failure;
  }
  const stale = (await photoPaths(supabase, holder.folder)).filter(
    (candidate) => candidate !== path,
  );
  await removePaths(supabase, stale);
  return url;
}

/** Clears the holder's photo, then deletes its stored photos. */
export async function removeStoredPhotos(
  supabase: PortalSupabase,
  holder: PhotoHolder,
): Promise<void> {
  await holder.setUrl(null);
  await removePaths(supabase, await photoPaths(supabase, holder.folder));
}

/** The user's own photo: their folder, their profile row. */
function userPhoto(supabase: PortalSupabase, userId: string): PhotoHolder {
  return {
    folder: userId,
    setUrl: async (url) => {
      unwrap(
        await supabase
          .from('profiles')
          .update({ photo_url: url })
          .eq('id', userId)
          .select('id')
          .single(),
      );
    },
  };
}

export const replacePhoto = (supabase: PortalSupabase, userId: string, photo: CheckedPhoto) =>
  replaceStoredPhoto(supabase, userPhoto(supabase, userId), photo);

export const removePhoto = (supabase: PortalSupabase, userId: string) =>
  removeStoredPhotos(supabase, userPhoto(supabase, userId));
