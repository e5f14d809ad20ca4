import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { teamProfileSchema, type TeamProfile } from '@shortlane/shared/schemas/team.ts';
import { slugFromName } from '@shortlane/shared/slug.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { SLUG_DESCRIPTION_STYLES } from './formStyles.ts';

const checkTeam = validateWith(teamProfileSchema);
const withSlug = (values: { name: string; slug: string }) => ({
  ...values,
  slug: values.slug.trim() || slugFromName(values.name),
});

/**
 * A team's name and slug: a new team (settings/teams for a standalone team, the organization's
 * settings/teams for one of its teams) or a rename there. `save` writes it; a refusal lands
 * under its field, or above the form when it concerns the whole request (the plan's team limit).
 */
export function TeamNameForm({
  save,
  pending,
  initial = { name: '', slug: '' },
  label = 'Create a team',
  submitLabel = 'Create team',
}: {
  save: (team: TeamProfile) => Promise<void>;
  pending: boolean;
  initial?: TeamProfile;
  /** The form's accessible name. */
  label?: string;
  submitLabel?: string;
}) {
  const form = useForm({
    initialValues: initial,
    // An empty slug is derived from the name (the rule the field's description states).
    validate: (values) => checkTeam(withSlug(values)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save(teamProfileSchema.parse(withSlug(values)));
      form.reset();
    } catch (error) {
      form.setErrors(await formErrorsFromError(error));
    }
  });
  const formError = form.errors.form;
  return (
    <form onSubmit={submit} noValidate aria-label={label} aria-busy={pending}>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <TextInput
          label="Team name"
          required
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Slug"
          description="Lower-case letters, numbers and dashes; it names the team's pages. Leave it empty to derive it from the name."
          styles={SLUG_DESCRIPTION_STYLES}
          key={form.key('slug')}
          {...form.getInputProps('slug')}
        />
        <Group>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
