import { Alert, Button, Group, List, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useState } from 'react';
import {
  useOrganizationProfileMutations,
  useRestoreSummaryQuery,
} from '../../data/organization-profile-query.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import { profileErrors, RESTORED } from './organizationProfile.ts';

export interface RestoreOrganizationModalProps {
  /** The archived organization; null keeps the modal closed. */
  organization: { id: string; name: string } | null;
  /** False when closed or declined (nothing changes); true once the organization is restored. */
  onClose: (restored: boolean) => void;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The restore-organization modal (link-creation "Organization and team"): loading until the
 * counts of admins, teams, members and links are known, then the admins listed; confirming
 * unarchives the organization and says so.
 */
export function RestoreOrganizationModal({ organization, onClose }: RestoreOrganizationModalProps) {
  return (
    <Modal
      opened={organization != null}
      onClose={() => onClose(false)}
      title={organization ? `Restore ${organization.name}?` : ''}
      centered
    >
      {organization && (
        <RestoreBody key={organization.id} organization={organization} onClose={onClose} />
      )}
    </Modal>
  );
}

function RestoreBody({
  organization,
  onClose,
}: {
  organization: { id: string; name: string };
  onClose: (restored: boolean) => void;
}) {
  const notify = useNotify();
  const summary = useRestoreSummaryQuery(organization.id, true);
  const { archive } = useOrganizationProfileMutations(organization.id);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setError(null);
    try {
      await archive.mutateAsync(false);
      notify({ message: RESTORED, durationMs: NOTICE_DURATION_MS.default, tone: 'success' });
      onClose(true);
    } catch (caught) {
      const errors = profileErrors(caught);
      setError(errors.form ?? Object.values(errors)[0] ?? null);
    }
  };

  if (summary.isPending) {
    return (
      <Group justify="center" py="md">
        <Loader size="sm" aria-label="Loading what the organization holds" />
      </Group>
    );
  }
  if (summary.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {profileErrors(summary.error).form ?? 'The organization could not be loaded.'}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }
  const { admins, adminCount, teamCount, memberCount, linkCount } = summary.data;
  return (
    <Stack gap="md">
      <Text size="sm">
        This organization is archived. Restoring it brings back its teams, members and links.
      </Text>
      <SimpleGrid cols={2} spacing="xs" aria-label="What the organization holds">
        <Text size="sm">{plural(adminCount, 'admin', 'admins')}</Text>
        <Text size="sm">{plural(teamCount, 'team', 'teams')}</Text>
        <Text size="sm">{plural(memberCount, 'member', 'members')}</Text>
        <Text size="sm">{plural(linkCount, 'link', 'links')}</Text>
      </SimpleGrid>
      <div>
        <Text size="sm" fw={600} id="restore-admins">
          Admins
        </Text>
        <List size="sm" aria-labelledby="restore-admins">
          {admins.map((admin) => (
            <List.Item key={admin.email}>
              {admin.name === '' ? admin.email : `${admin.name} (${admin.email})`}
            </List.Item>
          ))}
        </List>
      </div>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onClose(false)}>
          Not now
        </Button>
        <Button loading={archive.isPending} onClick={() => void confirm()}>
          Restore organization
        </Button>
      </Group>
    </Stack>
  );
}
