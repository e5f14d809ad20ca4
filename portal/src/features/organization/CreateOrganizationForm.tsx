import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState } from 'react';
import { useCreateOrganizationMutation } from '../../data/organization-profile-query.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import {
  type ProfileErrors,
  profileErrors,
  slugFromName,
  validateProfileDraft,
} from './organizationProfile.ts';
import { OrganizationNameFields } from './OrganizationNameFields.tsx';

/**
 * Creates an organization (create_organization: the caller's plan must allow teams); the slug
 * follows the name until the person edits it.
 */
export function CreateOrganizationForm({ onCreated }: { onCreated: (slug: string) => void }) {
  const notify = useNotify();
  const create = useCreateOrganizationMutation();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState<string | null>(null);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const shownSlug = slug ?? slugFromName(name);

  const submit = async () => {
    const draft = { name, slug: shownSlug };
    const invalid = validateProfileDraft(draft);
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    try {
      const created = await create.mutateAsync(draft);
      notify({
        message: 'The organization has been created.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
      onCreated(created);
    } catch (caught) {
      setErrors(profileErrors(caught));
    }
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="create-org-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="create-org-title">
            Create an organization
          </Title>
          <OrganizationNameFields
            name={name}
            slug={shownSlug}
            errors={errors}
            onName={setName}
            onSlug={setSlug}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              Create organization
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
