import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState, type ReactNode } from 'react';
import type { ZodType } from 'zod';
import { validateWith } from '../../lib/forms.ts';

interface Props {
  /** The form's accessible name. */
  name: string;
  label: string;
  description?: string;
  placeholder?: string;
  submitLabel: string;
  /** Validates and normalises the typed code (shared's schemas). */
  schema: ZodType<{ code: string }, { code: string }>;
  /** Resolves with the message to show under the field, or null when the code was accepted. */
  onSubmit: (code: string) => Promise<string | null>;
  /** What the one-time code is, for password managers and phones. */
  autoComplete?: string;
  numeric?: boolean;
  children?: ReactNode;
}

/**
 * One code field and its button: the TOTP step of login, the backup-code login and the
 * enrollment confirmation. Errors sit under the field (announced), the field keeps focus.
 */
export function CodeForm({
  name,
  label,
  description,
  placeholder,
  submitLabel,
  schema,
  onSubmit,
  autoComplete = 'one-time-code',
  numeric = false,
  children,
}: Props) {
  const [busy, setBusy] = useState(false);
  const form = useForm<{ code: string }>({
    mode: 'uncontrolled',
    initialValues: { code: '' },
    validate: validateWith(schema),
  });

  const submit = form.onSubmit(
    async (values) => {
      setBusy(true);
      const problem = await onSubmit(schema.parse(values).code);
      setBusy(false);
      if (problem) {
        form.setFieldError('code', problem);
        form.getInputNode('code')?.focus();
      }
    },
    () => form.getInputNode('code')?.focus(),
  );

  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label={name}>
      <Stack gap="md">
        <TextInput
          label={label}
          description={description}
          placeholder={placeholder}
          autoComplete={autoComplete}
          inputMode={numeric ? 'numeric' : 'text'}
          autoCapitalize={numeric ? undefined : 'characters'}
          spellCheck={false}
          data-autofocus
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
        <Button type="submit" loading={busy} fullWidth>
          {submitLabel}
        </Button>
        {children}
      </Stack>
    </form>
  );
}
