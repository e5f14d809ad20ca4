import { unwrap } from '../../data/unwrap.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import type { CheckedPhoto } from '../settings/photoFile.ts';
import { removeFolderPhotos, replaceFolderPhoto } from '../settings/profileActions.ts';

/** A team's photos live in the avatars bucket under teams/<team id>/ (storage policies). */
const folderOf = (teamId: string) => `teams/${teamId}`;

async function setTeamPhotoUrl(supabase: PortalSupabase, teamId: string, url: string | null) {
  unwrap(
    await supabase.from('teams').update({ photo_url: url }).eq('id', teamId).select('id').single(),
  );
}

export function replaceTeamPhoto(supabase: PortalSupabase, teamId: string, photo: CheckedPhoto) {
  return replaceFolderPhoto(supabase, folderOf(teamId), photo, (url) =>
    setTeamPhotoUrl(supabase, teamId, url),
  );
}

export function removeTeamPhoto(supabase: PortalSupabase, teamId: string) {
  return removeFolderPhotos(supabase, folderOf(teamId), () =>
    setTeamPhotoUrl(supabase, teamId, null),
  );
}
