import { useQueryClient } from '@tanstack/react-query';
import { organizationKeys } from '../../data/keys.ts';
import { unwrap } from '../../data/unwrap.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { PhotoPicker } from '../settings/PhotoForm.tsx';
import {
  type PhotoHolder,
  removeStoredPhotos,
  replaceStoredPhoto,
} from '../settings/profileActions.ts';

/** The organization's photo: its Storage folder and its row (the policies decide who writes). */
export function organizationPhoto(supabase: PortalSupabase, organizationId: string): PhotoHolder {
  return {
    folder: `organizations/${organizationId}`,
    setUrl: async (url) => {
      unwrap(
        await supabase
          .from('organizations')
          .update({ photo_url: url })
          .eq('id', organizationId)
          .select('id')
          .single(),
      );
    },
  };
}

/** The organization's photo, png or jpg up to 2 MB, in the pieces the user's own photo uses. */
export function OrganizationPhotoForm({
  organization,
  readOnly,
}: {
  organization: { id: string; name: string; photoUrl: string | null };
  readOnly: boolean;
}) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  const holder = organizationPhoto(supabase, organization.id);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: organizationKeys.mine(userId ?? '') });
  return (
    <PhotoPicker
      name={organization.name}
      photoUrl={organization.photoUrl}
      alt={`${organization.name}'s photo`}
      saved="The organization's photo was saved."
      removed="The organization's photo was removed."
      radius="md"
      readOnly={readOnly}
      replace={async (photo) => {
        await replaceStoredPhoto(supabase, holder, photo);
        await refresh();
      }}
      remove={async () => {
        await removeStoredPhotos(supabase, holder);
        await refresh();
      }}
    />
  );
}
