import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import {
  isPixelProvider,
  normalizePixelId,
  PIXEL_PROVIDER_INFO,
  PIXEL_PROVIDERS,
  pixelIdError,
  type PixelProvider,
} from '@shortlane/shared/pixels.ts';
import { useState, type FormEvent } from 'react';
import type { PixelInput } from '../../data/pixels/pixel-save-mutation.ts';
import type { PixelRow } from '../../data/pixels/pixels-query.ts';

const PROVIDER_OPTIONS = PIXEL_PROVIDERS.map((provider) => ({
  value: provider,
  label: PIXEL_PROVIDER_INFO[provider].label,
}));

/** Add or edit one pixel: provider, a name for people, and the provider's id. */
export function PixelForm({
  pixel,
  saving,
  idError,
  onSubmit,
  onCancel,
}: {
  pixel: PixelRow | null;
  saving: boolean;
  /** The server's refusal of the id, shown on its field. */
  idError: string | null;
  onSubmit: (input: PixelInput) => void;
  onCancel: () => void;
}) {
  const [provider, setProvider] = useState<PixelProvider>(
    pixel && isPixelProvider(pixel.provider) ? pixel.provider : 'meta',
  );
  const [name, setName] = useState(pixel?.name ?? '');
  const [pixelId, setPixelId] = useState(pixel?.pixel_id ?? '');
  const [checked, setChecked] = useState(false);
  const info = PIXEL_PROVIDER_INFO[provider];
  const nameError = checked && name.trim() === '' ? 'The name field is required.' : null;
  const localIdError = checked
    ? pixelId.trim() === ''
      ? `The ${info.idLabel.toLowerCase()} field is required.`
      : pixelIdError(provider, pixelId)
    : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (name.trim() === '' || pixelIdError(provider, pixelId) !== null) return;
    onSubmit({ provider, name: name.trim(), pixel_id: normalizePixelId(provider, pixelId) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={pixel ? 'Edit pixel' : 'Add pixel'}>
      <Stack>
        <Select
          label="Provider"
          required
          allowDeselect={false}
          data={PROVIDER_OPTIONS}
          value={provider}
          onChange={(value) => isPixelProvider(value) && setProvider(value)}
        />
        <TextInput
          label="Name"
          description="For you: which campaign or audience this pixel is for."
          required
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={nameError}
          data-autofocus
        />
        <TextInput
          label={info.idLabel}
          description={`${info.format} Only the id: never paste the provider's script.`}
          placeholder={info.example}
          required
          autoComplete="off"
          spellCheck={false}
          value={pixelId}
          onChange={(event) => setPixelId(event.currentTarget.value)}
          error={localIdError ?? idError}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save pixel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
