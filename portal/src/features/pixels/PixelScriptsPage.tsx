import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { isPixelProvider, PIXEL_PROVIDER_INFO } from '@shortlane/shared/pixels.ts';
import { useState } from 'react';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useDeletePixelMutation } from '../../data/pixels/pixel-delete-mutation.ts';
import { useSavePixelMutation } from '../../data/pixels/pixel-save-mutation.ts';
import { usePixelsQuery, type PixelRow } from '../../data/pixels/pixels-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { PixelForm } from './PixelForm.tsx';
import { pixelIdServerError } from './pixelErrors.ts';
import { ConfirmRemovalModal } from '../../components/ConfirmRemovalModal.tsx';

const TITLE = 'Custom pixel scripts';

const providerLabel = (provider: string) =>
  isPixelProvider(provider) ? PIXEL_PROVIDER_INFO[provider].label : provider;

/**
 * settings/pixel-scripts (verified or subscribed users; hidden from the account sidebar, as
 * app-shell 2 says): the retargeting pixels of the personal workspace. Links take them in their
 * edit dialog; a visit then fires them before it goes on.
 */
export default function PixelScriptsPage() {
  const { productName } = useConfig();
  usePageTitle(TITLE, productName);
  const profile = useProfileQuery();

  return (
    <Stack gap="lg">
      <Title order={1}>{TITLE}</Title>
      <Text>
        Add the retargeting pixels of your ad accounts, then choose them on your links. A visit to
        such a link shows a short page that fires the pixels and goes on to the destination within a
        second. Robots, and visitors who ask not to be tracked (Do Not Track, Global Privacy
        Control, or our privacy opt-out), go straight to the destination.
      </Text>
      {profile.isPending ? (
        <PageLoader />
      ) : profile.isError ? (
        <Alert color="red" title="Your account could not be loaded">
          <Button variant="light" size="xs" mt="xs" onClick={() => void profile.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <PixelsPanel accountId={profile.data.personal_account_id} />
      )}
    </Stack>
  );
}

type Editing = { pixel: PixelRow | null } | null;

function PixelsPanel({ accountId }: { accountId: string }) {
  const pixels = usePixelsQuery(accountId);
  const save = useSavePixelMutation(accountId);
  const remove = useDeletePixelMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<PixelRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const idError = pixelIdServerError(save.error);

  const close = () => {
    setEditing(null);
    save.reset();
  };

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="pixels-heading">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="pixels-heading">
          Pixels
        </Title>
        <Button onClick={() => setEditing({ pixel: null })}>Add pixel</Button>
      </Group>
      {notice && (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)} mb="md">
          {notice}
        </Alert>
      )}
      {pixels.isPending ? (
        <Loader size="sm" aria-label="Loading pixels" />
      ) : pixels.isError ? (
        <Alert color="red" title="The pixels could not be loaded">
          <Button variant="light" size="xs" mt="xs" onClick={() => void pixels.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : pixels.data.length === 0 ? (
        <Text c="dimmed">
          No pixels yet. Add your Meta, Google Ads, LinkedIn or TikTok pixel to retarget the people
          who visit your links.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Provider</Table.Th>
                <Table.Th scope="col">ID</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pixels.data.map((pixel) => (
                <Table.Tr key={pixel.id}>
                  <Table.Th scope="row" fw={600}>
                    {pixel.name}
                  </Table.Th>
                  <Table.Td>{providerLabel(pixel.provider)}</Table.Td>
                  <Table.Td>
                    <code>{pixel.pixel_id}</code>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Edit ${pixel.name}`}
                        onClick={() => setEditing({ pixel })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        aria-label={`Delete ${pixel.name}`}
                        onClick={() => setDeleting(pixel)}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal
        opened={editing !== null}
        onClose={close}
        title={editing?.pixel ? 'Edit pixel' : 'Add pixel'}
      >
        {editing && (
          <PixelForm
            pixel={editing.pixel}
            saving={save.isPending}
            idError={idError}
            onCancel={close}
            onSubmit={(input) =>
              save.mutate(
                { ...input, id: editing.pixel?.id },
                {
                  onSuccess: () => {
                    close();
                    setNotice(editing.pixel ? 'Pixel saved.' : 'Pixel added.');
                  },
                },
              )
            }
          />
        )}
        {save.isError && idError === null && (
          <Alert color="red" role="alert" mt="md">
            The pixel could not be saved. Please try again.
          </Alert>
        )}
      </Modal>

      <ConfirmRemovalModal
        opened={deleting !== null}
        title="Delete pixel"
        confirmLabel="Delete"
        pending={remove.isPending}
        error={remove.isError ? 'The pixel could not be deleted. Please try again.' : null}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              setNotice('Pixel deleted.');
            },
          })
        }
      >
        Delete {deleting?.name}? The links that carry it stop firing it at once.
      </ConfirmRemovalModal>
    </Paper>
  );
}
