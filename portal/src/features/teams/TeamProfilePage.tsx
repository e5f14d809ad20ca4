import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { teamProfileSchema } from '@shortlane/shared/schemas/team.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { refreshAppState } from '../../data/refresh.ts';
import { useUpdateTeamMutation } from '../../data/teams/team-profile-mutations.ts';
import type { TeamDetail } from '../../data/teams/team-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { href } from '../../routes/paths.ts';
import { PhotoPicker } from '../settings/PhotoForm.tsx';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { SLUG_DESCRIPTION_STYLES } from './formStyles.ts';
import { TeamSettingsFrame } from './TeamSettingsFrame.tsx';
import { removeTeamPhoto, replaceTeamPhoto } from './teamPhoto.ts';

function TeamProfileForm({ team }: { team: TeamDetail }) {
  const mutation = useUpdateTeamMutation(team.id);
  const success = useSuccessNotice();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { name: team.name, slug: team.slug },
    validate: validateWith(teamProfileSchema),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const input = teamProfileSchema.parse(values);
      await mutation.mutateAsync(input);
      success('The team was saved.');
      form.resetDirty();
      // The page's address names the slug: follow it when it changed.
      if (input.slug !== team.slug) {
        void navigate(href('team.profile', { org: team.orgSlug, team: input.slug }), {
          replace: true,
        });
      }
    } catch (error) {
      form.setErrors(await formErrorsFromError(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-busy={mutation.isPending} aria-label="Team profile">
      <Stack gap="sm">
        <TextInput label="Name" required key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Slug"
          description="Lower-case letters, numbers and dashes; it names the team's pages."
          styles={SLUG_DESCRIPTION_STYLES}
          required
          key={form.key('slug')}
          {...form.getInputProps('slug')}
        />
        <Group>
          <Button type="submit" loading={mutation.isPending}>
            Save team
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TeamPhoto({ team }: { team: TeamDetail }) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  const refresh = () => (userId ? refreshAppState(queryClient, userId) : Promise.resolve());
  return (
    <PhotoPicker
      name={team.name}
      photoUrl={team.photoUrl}
      alt={`Photo of the team ${team.name}`}
      saved="The team photo was saved."
      removed="The team photo was removed."
      replace={async (photo) => {
        await replaceTeamPhoto(supabase, team.id, photo);
        await refresh();
      }}
      remove={async () => {
        await removeTeamPhoto(supabase, team.id);
        await refresh();
      }}
    />
  );
}

/** organization/{org}/team/{team}/profile: the team's name, slug and photo. */
export default function TeamProfilePage() {
  return (
    <TeamSettingsFrame title="Team profile">
      {(team) =>
        team.permissions.includes('settings') ? (
          <>
            <SettingsSection title="Photo">
              <TeamPhoto team={team} />
            </SettingsSection>
            <SettingsSection title="Name and slug">
              <TeamProfileForm key={`${team.name}/${team.slug}`} team={team} />
            </SettingsSection>
          </>
        ) : (
          <SettingsSection title="Name and slug">
            <Text>
              {team.name} ({team.slug})
            </Text>
            <Text size="sm" c="gray.7" mt="xs">
              Only the team&apos;s admins can change its profile.
            </Text>
          </SettingsSection>
        )
      }
    </TeamSettingsFrame>
  );
}
