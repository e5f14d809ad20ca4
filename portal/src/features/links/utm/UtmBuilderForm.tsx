import {
  Alert,
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { NOTICE_DURATION_MS, UTM_FIELD_RULES, type UtmField } from '@shortlane/shared/constants.ts';
import { utmPresetSchema, utmValuesSchema } from '@shortlane/shared/schemas/utm-preset.ts';
import { applyUtm, readUtm } from '@shortlane/shared/validation/utm.ts';
import { useState } from 'react';
import { useProfileQuery } from '../../../data/profile-query.ts';
import { useUserId } from '../../../data/use-user-id.ts';
import { useCreateUtmPresetMutation } from '../../../data/utm-presets-create-mutation.ts';
import { useUtmPresetsQuery, type UtmPresetRow } from '../../../data/utm-presets-query.ts';
import { validateWith } from '../../../lib/forms.ts';
import { useNotify } from '../../../lib/servicesContext.ts';
import { presetSaveFailure } from './presetSaveFailure.ts';
import type { UtmBuilderModalProps } from './UtmBuilderModal.tsx';

type UtmFormValues = Record<UtmField, string> & { createPreset: boolean; name: string };

const FIELD_LABELS: Record<UtmField, { label: string; example: string }> = {
  utm_source: { label: 'Campaign source (utm_source)', example: 'e.g. newsletter, google' },
  utm_medium: { label: 'Campaign medium (utm_medium)', example: 'e.g. email, cpc' },
  utm_campaign: { label: 'Campaign name (utm_campaign)', example: 'e.g. spring_sale' },
  utm_term: { label: 'Campaign term (utm_term)', example: 'e.g. running shoes' },
  utm_content: { label: 'Campaign content (utm_content)', example: 'e.g. header_link' },
};
const FIELDS = Object.keys(FIELD_LABELS) as UtmField[];

function initialValues(url: string): UtmFormValues {
  const present = readUtm(url);
  const values = { createPreset: false, name: '' } as UtmFormValues;
  for (const field of FIELDS) values[field] = present[field] ?? '';
  return values;
}

const validateUtm = validateWith(utmValuesSchema);
const validatePreset = validateWith(utmPresetSchema);

function useTargetAccount(accountId: string | null | undefined): string | null {
  const userId = useUserId();
  const profile = useProfileQuery();
  if (userId == null) return null;
  if (accountId !== undefined) return accountId;
  return profile.data?.personal_account_id ?? null;
}

/** The builder's form, mounted per opening of UtmBuilderModal. */
export default function UtmBuilderForm({
  url,
  onClose,
  onApply,
  accountId,
}: Omit<UtmBuilderModalProps, 'opened'>) {
  const targetAccount = useTargetAccount(accountId);
  const presets = useUtmPresetsQuery(targetAccount);
  const createPreset = useCreateUtmPresetMutation();
  const notify = useNotify();
  const [presetId, setPresetId] = useState<string | null>(null);
  const form = useForm<UtmFormValues>({
    initialValues: initialValues(url),
    validate: (values) => (values.createPreset ? validatePreset(values) : validateUtm(values)),
  });

  const applyPreset = (id: string | null) => {
    setPresetId(id);
    const preset = presets.data?.find((row) => row.id === id);
    if (!preset) return;
    form.setValues(presetValues(preset));
    form.clearErrors();
  };

  const submit = form.onSubmit(
    async (values) => {
      if (values.createPreset && targetAccount != null) {
        try {
          await createPreset.mutateAsync({
            accountId: targetAccount,
            preset: utmPresetSchema.parse(values),
          });
        } catch (error) {
          const failure = presetSaveFailure(error);
          if (failure.kind === 'fields') form.setErrors(failure.fieldErrors);
          else notify({ message: failure.message, durationMs: NOTICE_DURATION_MS.default });
          return;
        }
      }
      onApply(applyUtm(url, values));
      onClose();
    },
    (errors) => {
      const firstInvalid = [...FIELDS, 'name' as const].find((name) => errors[name]);
      if (firstInvalid) form.getInputNode(firstInvalid)?.focus();
    },
  );

  const busy = createPreset.isPending;
  return (
    <form
      onSubmit={(event) => {
        // The modal sits in a portal, but React bubbles its submit to the create form it was
        // opened from, which would then create the link.
        event.stopPropagation();
        submit(event);
      }}
      noValidate
      aria-busy={busy}
      aria-label="UTM Builder"
    >
      <Stack gap="md">
        {targetAccount != null && (
          <PresetPicker
            presets={presets.data}
            loading={presets.isPending}
            failed={presets.isError}
            value={presetId}
            onChange={applyPreset}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FIELDS.map((field, index) => (
            <TextInput
              key={field}
              label={FIELD_LABELS[field].label}
              placeholder={FIELD_LABELS[field].example}
              withAsterisk={UTM_FIELD_RULES[field].required}
              data-autofocus={index === 0 || undefined}
              {...form.getInputProps(field)}
            />
          ))}
        </SimpleGrid>
        {targetAccount != null && (
          <>
            <Checkbox
              label="Save as a new preset"
              {...form.getInputProps('createPreset', { type: 'checkbox' })}
            />
            {form.values.createPreset && (
              <TextInput label="Preset name" withAsterisk {...form.getInputProps('name')} />
            )}
          </>
        )}
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} aria-live="polite">
          {applyUtm(url, form.values)}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Apply
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function presetValues(preset: UtmPresetRow): Record<UtmField, string> {
  return {
    utm_source: preset.utm_source,
    utm_medium: preset.utm_medium,
    utm_campaign: preset.utm_campaign,
    utm_term: preset.utm_term ?? '',
    utm_content: preset.utm_content ?? '',
  };
}

function PresetPicker({
  presets,
  loading,
  failed,
  value,
  onChange,
}: {
  presets: UtmPresetRow[] | undefined;
  loading: boolean;
  failed: boolean;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  if (failed) {
    return (
      <Alert color="red" role="alert">
        The presets could not be loaded.
      </Alert>
    );
  }
  const empty = !loading && (presets?.length ?? 0) === 0;
  return (
    <Select
      label="Preset"
      placeholder={
        loading ? 'Loading presets…' : empty ? 'No presets saved yet' : 'Choose a preset'
      }
      data={(presets ?? []).map((preset) => ({ value: preset.id, label: preset.name }))}
      value={value}
      onChange={onChange}
      disabled={loading || empty}
      clearable
      comboboxProps={{ withinPortal: true }}
    />
  );
}
