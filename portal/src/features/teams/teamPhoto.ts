import { unwrap } from '../../data/unwrap.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import type { CheckedPhoto } from '../settings/photoFile.ts';
import {
  type PhotoHolder,
  removeStoredPhotos,
  replaceStoredPhoto,
} from '../settings/profileActions.ts';

/** A team's photos live in the avatars bucket under teams/<team id>/ (storage policies). */
function teamPhoto(supabase: PortalSupabase, teamId: string): PhotoHolder {
  return {
    folder: `teams/${teamId}`,
    setUrl: async (url) => {
      unwrap(
        await supabase
          .from('teams')
          .update({ photo_url: url })
          .eq('id', teamId)
          .select('id')
          .single(),
      );
    },
  };
}

export const replaceTeamPhoto = (supabase: PortalSupabase, teamId: string, photo: CheckedPhoto) =>
  replaceStoredPhoto(supabase, teamPhoto(supabase, teamId), photo);

export const removeTeamPhoto = (supabase: PortalSupabase, teamId: string) =>
  removeStoredPhotos(supabase, teamPhoto(supabase, teamId));
