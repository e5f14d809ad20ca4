import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { profileUpdateSchema } from '@shortlane/shared/schemas/profile.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { refreshAppState } from '../../data/refresh.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { saveName } from './profileActions.ts';
import { useSuccessNotice } from './useSuccessNotice.ts';

const nameSchema = profileUpdateSchema.pick({ name: true });

/** The profile's name: required, at most 255 characters (shared's profile schema). */
export function NameForm({ userId, name }: { userId: string; name: string }) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const success = useSuccessNotice();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { name },
    validate: validateWith(nameSchema),
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      await saveName(supabase, userId, nameSchema.parse(values).name);
      await refreshAppState(queryClient, userId);
      form.resetDirty();
      success('Your name was saved.');
    } catch (error) {
      // The global handler already announced the failure; field errors go under the field.
      form.setErrors(await formErrorsFromError(error));
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-busy={busy} aria-label="Name">
      <Stack gap="sm">
        <TextInput
          label="Name"
          autoComplete="name"
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Save name
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
