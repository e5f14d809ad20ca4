import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { organizationKeys } from '../../data/keys.ts';
import { unwrap } from '../../data/unwrap.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { checkPhoto } from '../settings/photoFile.ts';
import {
  type PhotoHolder,
  removeStoredPhotos,
  replaceStoredPhoto,
} from '../settings/profileActions.ts';

const ERROR_ID = 'organization-photo-error';

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

/** The organization's photo, png or jpg up to 2 MB, as the user's own photo form takes it. */
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
  const notify = useNotify();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const holder = organizationPhoto(supabase, organization.id);

  const run = async (kind: 'upload' | 'remove', work: () => Promise<unknown>, done: string) => {
    setBusy(kind);
    try {
      await work();
      void queryClient.invalidateQueries({ queryKey: organizationKeys.mine(userId ?? '') });
      notify({ message: done, durationMs: NOTICE_DURATION_MS.default, tone: 'success' });
    } catch {
      setError(
        kind === 'upload' ? 'The photo could not be saved.' : 'The photo could not be removed.',
      );
    } finally {
      setBusy(null);
    }
  };

  const choose = async (file: File | null) => {
    setError(null);
    if (!file) return;
    const checked = await checkPhoto(file);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    await run(
      'upload',
      () => replaceStoredPhoto(supabase, holder, checked.photo),
      "The organization's photo was saved.",
    );
  };

  return (
    <Group gap="lg" align="center">
      <Avatar
        src={organization.photoUrl}
        alt={organization.photoUrl ? `${organization.name}'s photo` : undefined}
        name={organization.name}
        size={80}
        radius="md"
      />
      {!readOnly && (
        <Stack gap={6}>
          <Group gap="sm">
            <FileButton onChange={choose} accept="image/png,image/jpeg">
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  loading={busy === 'upload'}
                  disabled={busy !== null}
                  aria-describedby={error ? ERROR_ID : undefined}
                >
                  {organization.photoUrl ? 'Change photo' : 'Upload photo'}
                </Button>
              )}
            </FileButton>
            {organization.photoUrl && (
              <Button
                variant="default"
                loading={busy === 'remove'}
                disabled={busy !== null}
                onClick={() =>
                  void run(
                    'remove',
                    () => removeStoredPhotos(supabase, holder),
                    "The organization's photo was removed.",
                  )
                }
              >
                Remove photo
              </Button>
            )}
          </Group>
          <Text size="sm" c="gray.7">
            A png or jpg image.
          </Text>
          {error && (
            <Text id={ERROR_ID} role="alert" size="sm" c="red.8">
              {error}
            </Text>
          )}
        </Stack>
      )}
    </Group>
  );
}
