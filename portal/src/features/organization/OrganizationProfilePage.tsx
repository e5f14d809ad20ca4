import { Alert, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import {
  type OrganizationProfile,
  useOrganizationProfileMutations,
  useOrganizationProfileQuery,
} from '../../data/organization-profile-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { type ProfileErrors, profileErrors, validateProfileDraft } from './organizationProfile.ts';
import { OrganizationNameFields } from './OrganizationNameFields.tsx';
import { OrganizationPhotoForm } from './OrganizationPhotoForm.tsx';
import { RestoreOrganizationModal } from './RestoreOrganizationModal.tsx';
import { OrganizationUnavailable } from './OrganizationUnavailable.tsx';

function ProfileForm({
  organization,
  readOnly,
}: {
  organization: OrganizationProfile;
  readOnly: boolean;
}) {
  const notify = useNotify();
  const navigate = useNavigate();
  const { save } = useOrganizationProfileMutations(organization.id);
  const [draft, setDraft] = useState({ name: organization.name, slug: organization.slug });
  const [errors, setErrors] = useState<ProfileErrors>({});

  const submit = async () => {
    const invalid = validateProfileDraft(draft);
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    try {
      const slug = await save.mutateAsync(draft);
      notify({
        message: 'The organization has been saved.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
      // The page's address holds the slug: follow it when it changed.
      if (slug !== organization.slug) {
        void navigate(href('org.settings.profile', { org: slug }), { replace: true });
      }
    } catch (caught) {
      setErrors(profileErrors(caught));
    }
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="org-profile-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="org-profile-title">
            Profile
          </Title>
          <OrganizationPhotoForm organization={organization} readOnly={readOnly} />
          <OrganizationNameFields
            name={draft.name}
            slug={draft.slug}
            errors={errors}
            readOnly={readOnly}
            onName={(name) => setDraft((current) => ({ ...current, name }))}
            onSlug={(slug) => setDraft((current) => ({ ...current, slug }))}
          />
          {!readOnly && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

/** The owner archives the organization here, after saying yes once more. */
function ArchiveSection({ organization }: { organization: OrganizationProfile }) {
  const notify = useNotify();
  const { archive } = useOrganizationProfileMutations(organization.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    try {
      await archive.mutateAsync(true);
      notify({
        message: 'The organization has been archived.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    } catch (caught) {
      setConfirming(false);
      const errors = profileErrors(caught);
      setError(errors.form ?? Object.values(errors)[0] ?? null);
    }
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="org-archive-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="org-archive-title">
          Archive
        </Title>
        <Text size="sm" c="gray.7">
          An archived organization and its teams stop working until you restore it. Nothing is
          deleted.
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {confirming ? (
          <Group gap="xs" role="group" aria-label={`Archive ${organization.name}?`}>
            <Text size="sm">Archive {organization.name}?</Text>
            <Button
              color="red"
              size="xs"
              loading={archive.isPending}
              onClick={() => void confirm()}
            >
              Archive
            </Button>
            <Button variant="default" size="xs" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </Group>
        ) : (
          <Group>
            <Button variant="light" color="red" onClick={() => setConfirming(true)}>
              Archive organization
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * organization/{org}/settings/profile: the organization's name, slug and photo, changed by
 * holders of `profile` (the table's policy decides) and read by other members; the owner
 * archives the organization here and restores it.
 */
export default function OrganizationProfilePage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Organization profile', productName);
  const userId = useUserId();
  const access = useOrganizationBySlugQuery(org);
  const profile = useOrganizationProfileQuery(org);
  const [restoring, setRestoring] = useState(false);

  if (access.isPending || profile.isPending) return <PageLoader />;
  if (access.isError || profile.isError || access.data === null || profile.data === null) {
    return (
      <OrganizationUnavailable
        title="Organization profile"
        loadFailed={access.isError || profile.isError}
      />
    );
  }
  const organization = profile.data;
  const isOwner = organization.ownerId === userId;
  const archived = organization.archivedAt != null;
  const canEdit = access.data.permissions.includes('profile') && !archived;

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Organization profile</Title>
          <Text mt="xs" c="gray.7">
            The organization&apos;s name and address.
            {!access.data.permissions.includes('profile') &&
              ' Only the owner and holders of the Profile permission change them.'}
          </Text>
        </div>
        {archived && (
          <Alert color="yellow" role="status">
            {/* No Alert title: a yellow title fails contrast (axe) under the modal's overlay. */}
            <Text fw={700}>This organization is archived</Text>
            {isOwner ? (
              <Button mt="xs" size="xs" onClick={() => setRestoring(true)}>
                Restore organization
              </Button>
            ) : (
              'Only its owner can restore it.'
            )}
          </Alert>
        )}
        <ProfileForm
          key={`${organization.id}:${organization.slug}:${organization.name}`}
          organization={organization}
          readOnly={!canEdit}
        />
        {isOwner && !archived && <ArchiveSection organization={organization} />}
      </Stack>
      <RestoreOrganizationModal
        organization={restoring ? organization : null}
        onClose={() => setRestoring(false)}
      />
    </Container>
  );
}
