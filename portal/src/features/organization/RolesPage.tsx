import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ORG_PERMISSIONS, type OrgPermission } from '@shortlane/shared/permissions.ts';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import {
  type OrganizationRole,
  type RoleDraft,
  useOrganizationRoleMutations,
  useOrganizationRolesQuery,
} from '../../data/organization-roles-query.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { orderedPermissions, PERMISSION_LABELS, roleErrorMessage, roleNameError } from './roles.ts';
import { OrganizationUnavailable } from './OrganizationUnavailable.tsx';

interface RoleFormProps {
  /** Null for a new role. */
  role: OrganizationRole | null;
  otherNames: readonly string[];
  readOnly: boolean;
  organizationId: string;
  onDone?: () => void;
}

function RoleForm({ role, otherNames, readOnly, organizationId, onDone }: RoleFormProps) {
  const notify = useNotify();
  const { save, remove } = useOrganizationRoleMutations(organizationId);
  const [draft, setDraft] = useState<RoleDraft>({
    name: role?.name ?? '',
    permissions: role?.permissions ?? [],
  });
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const title = role ? role.name : 'New role';
  const fieldId = role ? `role-${role.id}` : 'role-new';

  const submit = async () => {
    setFormError(null);
    const error = roleNameError(draft.name, otherNames);
    setNameError(error);
    if (error) return;
    try {
      await save.mutateAsync({ id: role?.id ?? null, draft });
      notify({
        message: role ? 'The role has been saved.' : 'The role has been created.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
      if (!role) setDraft({ name: '', permissions: [] });
      onDone?.();
    } catch (caught) {
      setFormError(roleErrorMessage(caught));
    }
  };
  const destroy = async () => {
    if (!role) return;
    setFormError(null);
    try {
      await remove.mutateAsync(role.id);
      notify({
        message: 'The role has been deleted.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    } catch (caught) {
      setConfirmingDelete(false);
      setFormError(roleErrorMessage(caught));
    }
  };

  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`${fieldId}-title`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={`${fieldId}-title`}>
            {title}
          </Title>
          {role && (
            <Badge variant="light" color="gray">
              {role.users === 1 ? '1 person' : `${role.users} people`}
            </Badge>
          )}
        </Group>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <TextInput
          label="Name"
          value={draft.name}
          error={nameError}
          readOnly={readOnly}
          maxLength={100}
          onChange={(event) => {
            const name = event.currentTarget.value;
            setDraft((current) => ({ ...current, name }));
          }}
        />
        <Checkbox.Group
          label="Permissions"
          value={draft.permissions}
          onChange={(picked) =>
            setDraft((current) => ({ ...current, permissions: orderedPermissions(picked) }))
          }
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {ORG_PERMISSIONS.map((permission: OrgPermission) => (
              <Checkbox
                key={permission}
                value={permission}
                disabled={readOnly}
                label={PERMISSION_LABELS[permission].label}
                description={PERMISSION_LABELS[permission].description}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {!readOnly && (
          <Group justify="space-between">
            {role ? (
              confirmingDelete ? (
                <Group gap="xs" role="group" aria-label={`Delete ${role.name}?`}>
                  <Text size="sm">
                    Delete {role.name}? Pending invitations with this role are withdrawn.
                  </Text>
                  <Button
                    color="red"
                    size="xs"
                    loading={remove.isPending}
                    onClick={() => void destroy()}
                  >
                    Delete
                  </Button>
                  <Button variant="default" size="xs" onClick={() => setConfirmingDelete(false)}>
                    Keep it
                  </Button>
                </Group>
              ) : (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  onClick={() => setConfirmingDelete(true)}
                >
                  Delete role
                </Button>
              )
            ) : (
              <span />
            )}
            <Button loading={save.isPending} onClick={() => void submit()}>
              {role ? 'Save role' : 'Create role'}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * organization/{org}/settings/roles: the organization's custom roles, each a list of the 11
 * permissions. Holders of `roles` (and the owner, who holds every permission) create, change and
 * delete them; other members read them.
 */
export default function RolesPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Roles', productName);
  const organization = useOrganizationBySlugQuery(org);
  const organizationId = organization.data?.id ?? null;
  const roles = useOrganizationRolesQuery(organizationId);

  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null) {
    return <OrganizationUnavailable title="Roles" loadFailed={organization.isError} />;
  }
  const { id: currentOrganizationId, permissions } = organization.data;
  const canManage = permissions.includes('roles');
  const names = (roles.data ?? []).map((role) => role.name);

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Roles</Title>
          <Text mt="xs" c="gray.7">
            A role is a list of permissions given to organization users. The owner holds every
            permission.
            {!canManage && ' Only the owner and holders of the Roles permission change roles.'}
          </Text>
        </div>
        {canManage && (
          <RoleForm
            role={null}
            otherNames={names}
            readOnly={false}
            organizationId={currentOrganizationId}
          />
        )}
        {roles.isPending ? (
          <Loader size="sm" aria-label="Loading the roles" />
        ) : roles.isError ? (
          <Alert color="red" title="The roles could not be loaded" role="alert">
            <Button variant="light" size="xs" mt="xs" onClick={() => void roles.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : roles.data.length === 0 ? (
          <Text c="dimmed">No roles yet.</Text>
        ) : (
          roles.data.map((role) => (
            <RoleForm
              key={`${role.id}:${role.name}:${role.permissions.join()}`}
              role={role}
              otherNames={names.filter((name) => name !== role.name)}
              readOnly={!canManage}
              organizationId={currentOrganizationId}
            />
          ))
        )}
      </Stack>
    </Container>
  );
}
