import { Alert, Anchor, Button, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { isPixelProvider, PIXEL_PROVIDER_INFO } from '@shortlane/shared/pixels.ts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  useLinkPixelsQuery,
  useSaveLinkPixelsMutation,
} from '../../../data/pixels/link-pixels-query.ts';
import { usePixelsQuery, type PixelRow } from '../../../data/pixels/pixels-query.ts';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import { formErrorsFromError } from '../../../lib/forms.ts';
import { useNotify } from '../../../lib/servicesContext.ts';
import { href } from '../../../routes/paths.ts';
import { useViewer } from '../../../state/appState.ts';

const optionLabel = (pixel: PixelRow) =>
  `${pixel.name} (${isPixelProvider(pixel.provider) ? PIXEL_PROVIDER_INFO[pixel.provider].label : pixel.provider})`;

/**
 * The retargeting pixels a link fires, in its edit dialog: any of its account's pixels
 * (settings/pixel-scripts), saved on their own, all at once. Shown to verified or subscribed
 * users, who alone may manage pixels.
 */
export function LinkPixels({ link }: { link: LinkListItem }) {
  const viewer = useViewer();
  const accountId = viewer?.verifiedOrSubscribed ? link.accountId : null;
  const pixels = usePixelsQuery(accountId);
  const attached = useLinkPixelsQuery(link.id, accountId != null);
  if (accountId == null || !pixels.data || !attached.data) return null;
  return <LinkPixelsForm link={link} pixels={pixels.data} attached={attached.data} />;
}

function LinkPixelsForm({
  link,
  pixels,
  attached,
}: {
  link: LinkListItem;
  pixels: PixelRow[];
  attached: string[];
}) {
  const notify = useNotify();
  const save = useSaveLinkPixelsMutation(link.id);
  const [chosen, setChosen] = useState<string[]>(attached);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    try {
      await save.mutateAsync(chosen);
      notify({
        message: 'The pixels were saved.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    } catch (error) {
      const messages = await formErrorsFromError(error);
      setFormError(Object.values(messages)[0] ?? 'The pixels could not be saved.');
    }
  };

  return (
    <Stack gap="xs" component="section" aria-label="Retargeting pixels">
      <Title order={4}>Retargeting pixels</Title>
      {pixels.length === 0 ? (
        <Text size="sm">
          No pixels in this account yet.{' '}
          <Anchor component={Link} to={href('settings.pixelScripts')}>
            Add pixels
          </Anchor>
        </Text>
      ) : (
        <>
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <MultiSelect
            label="Pixels fired on a visit"
            description="Visitors who opt out of tracking, and robots, go straight to the destination."
            data={pixels.map((pixel) => ({ value: pixel.id, label: optionLabel(pixel) }))}
            value={chosen}
            onChange={setChosen}
            maxValues={10}
            clearable
          />
          <Group justify="flex-end">
            <Button variant="light" loading={save.isPending} onClick={() => void submit()}>
              Save pixels
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
