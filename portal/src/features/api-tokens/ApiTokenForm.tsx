import { Alert, Button, Checkbox, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { API_TOKEN_ABILITIES } from './abilities.ts';
import type { TokenField } from './tokenErrors.ts';

export interface ApiTokenFormValues {
  name: string;
  abilities: string[];
  /** Days until the token expires; null: never. */
  expiresInDays: number | null;
}

const EXPIRY_CHOICES = [
  { value: '', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
];

const NAME_MAX = 100;

/** The checks the server makes too (app.check_api_token_fields), said before the round trip. */
function localErrors(values: ApiTokenFormValues): Partial<Record<TokenField, string>> {
  const errors: Partial<Record<TokenField, string>> = {};
  const name = values.name.trim();
  if (name === '') errors.name = 'The name field is required.';
  else if (name.length > NAME_MAX)
    errors.name = `The name must not be greater than ${NAME_MAX} characters.`;
  if (values.abilities.length === 0) errors.abilities = 'Choose at least one ability.';
  return errors;
}

/** Name, abilities and (for a new token) an optional expiry: the create and edit screens. */
export function ApiTokenForm({
  initial,
  withExpiry,
  submitLabel,
  saving,
  serverError,
  onSubmit,
  onCancel,
}: {
  initial: ApiTokenFormValues;
  withExpiry: boolean;
  submitLabel: string;
  saving: boolean;
  serverError: { field: TokenField; message: string } | null;
  onSubmit: (values: ApiTokenFormValues) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<TokenField, string>>>({});
  const shown = serverError ? { ...errors, [serverError.field]: serverError.message } : errors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = localErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onSubmit({ ...values, name: values.name.trim() });
  };

  return (
    <form onSubmit={submit} noValidate aria-busy={saving}>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="Say where the token is used, e.g. “Deploy script”."
          required
          maxLength={NAME_MAX}
          value={values.name}
          onChange={(event) => {
            const name = event.currentTarget.value;
            setValues((current) => ({ ...current, name }));
          }}
          error={shown.name}
        />
        <Checkbox.Group
          label="Abilities"
          description="What programs using this token may do."
          required
          value={values.abilities}
          onChange={(abilities) => setValues((current) => ({ ...current, abilities }))}
          error={shown.abilities}
        >
          <Stack gap="xs" mt="xs">
            {API_TOKEN_ABILITIES.map((ability) => (
              <Checkbox
                key={ability.value}
                value={ability.value}
                label={ability.label}
                description={ability.description}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {withExpiry && (
          <NativeSelect
            label="Expires"
            description="Optional: the token stops working then."
            data={EXPIRY_CHOICES}
            value={values.expiresInDays === null ? '' : String(values.expiresInDays)}
            onChange={(event) => {
              const days = event.currentTarget.value;
              setValues((current) => ({
                ...current,
                expiresInDays: days === '' ? null : Number(days),
              }));
            }}
            error={shown.expires_at}
          />
        )}
        {shown.form && (
          <Alert color="red" role="alert">
            {shown.form}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
