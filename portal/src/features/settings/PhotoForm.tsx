import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { refreshAppState } from '../../data/refresh.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { checkPhoto, type CheckedPhoto } from './photoFile.ts';
import { removePhoto, replacePhoto } from './profileActions.ts';
import { useSuccessNotice } from './useSuccessNotice.ts';

/** The profile photo: png or jpg up to 2 MB, shown here and in the navigation bar. */
export function PhotoForm({
  userId,
  name,
  photoUrl,
}: {
  userId: string;
  name: string;
  photoUrl: string | null;
}) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  return (
    <PhotoPicker
      name={name}
      photoUrl={photoUrl}
      alt="Your profile photo"
      saved="Your photo was saved."
      removed="Your photo was removed."
      replace={async (photo) => {
        await replacePhoto(supabase, userId, photo);
        await refreshAppState(queryClient, userId);
      }}
      remove={async () => {
        await removePhoto(supabase, userId);
        await refreshAppState(queryClient, userId);
      }}
    />
  );
}

/**
 * A photo with upload and remove: a user's, a team's, an organization's. replace/remove also
 * refresh what shows it; read-only, only the photo shows.
 */
export function PhotoPicker({
  name,
  photoUrl,
  alt,
  saved,
  removed,
  replace,
  remove,
  radius = 'xl',
  readOnly = false,
}: {
  name: string;
  photoUrl: string | null;
  alt: string;
  saved: string;
  removed: string;
  replace: (photo: CheckedPhoto) => Promise<void>;
  remove: () => Promise<void>;
  /** People's photos are round; an organization's is a rounded square. */
  radius?: 'xl' | 'md';
  readOnly?: boolean;
}) {
  const errorId = useId();
  const success = useSuccessNotice();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Failures of the calls themselves are announced by the global response handler.
  const run = async (kind: 'upload' | 'remove', work: () => Promise<unknown>, done: string) => {
    setBusy(kind);
    try {
      await work();
      success(done);
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
    await run('upload', () => replace(checked.photo), saved);
  };

  return (
    <Group gap="lg" align="center">
      <Avatar
        src={photoUrl}
        alt={photoUrl ? alt : undefined}
        name={name}
        size={80}
        radius={radius}
      />
      {!readOnly && (
        <Stack gap={6}>
          <Group gap="sm">
            <FileButton onChange={choose} accept="image/png,image/jpeg">
              {(props) => (
                <Button
                  {...props}
                  loading={busy === 'upload'}
                  disabled={busy !== null}
                  aria-describedby={error ? errorId : undefined}
                >
                  {photoUrl ? 'Change photo' : 'Upload photo'}
                </Button>
              )}
            </FileButton>
            {photoUrl && (
              <Button
                variant="default"
                loading={busy === 'remove'}
                disabled={busy !== null}
                onClick={() => void run('remove', remove, removed)}
              >
                Remove photo
              </Button>
            )}
          </Group>
          <Text size="sm" c="gray.7">
            A png or jpg image.
          </Text>
          {error && (
            <Text id={errorId} role="alert" size="sm" c="red.8">
              {error}
            </Text>
          )}
        </Stack>
      )}
    </Group>
  );
}
