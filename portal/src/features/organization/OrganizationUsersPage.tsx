import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { organizationInvitationSchema } from '@shortlane/shared/schemas/organization-users.ts';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import {
  type OrganizationRole,
  useOrganizationRolesQuery,
} from '../../data/organization-roles-query.ts';
import {
  type OrganizationPerson,
  useOrganizationInvitationsQuery,
  useOrganizationPeopleQuery,
  useOrganizationUserMutations,
} from '../../data/organization-users/organization-users.ts';
import { apiFailureMessage, formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { escapeHtml } from '../../lib/html.ts';
import { useConfig, useDialogs } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useViewer } from '../../state/appState.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { invitedMessage } from './invitedMessage.ts';
import { OrganizationUnavailable } from './OrganizationUnavailable.tsx';

type Mutations = ReturnType<typeof useOrganizationUserMutations>;

function InviteForm({ roles, mutations }: { roles: OrganizationRole[]; mutations: Mutations }) {
  const success = useSuccessNotice();
  const form = useForm<{ email: string; roleId: string }>({
    initialValues: { email: '', roleId: roles[0]?.id ?? '' },
    validate: validateWith(organizationInvitationSchema),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const parsed = organizationInvitationSchema.parse(values);
      const { mailed } = await mutations.invite.mutateAsync(parsed);
      success(invitedMessage(parsed.email, mailed));
      form.setFieldValue('email', '');
    } catch (error) {
      const errors = await formErrorsFromError(error);
      // Plan limits and "already invited" concern the address as a whole.
      const message = errors.invitation ?? errors.form ?? null;
      form.setErrors(message ? { email: message } : errors);
    }
  });
  if (roles.length === 0) {
    return <Text c="gray.7">Create a role first (Roles): every organization user holds one.</Text>;
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Invite a user"
      aria-busy={mutations.invite.isPending}
    >
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="E-mail address"
          type="email"
          autoComplete="off"
          required
          style={{ flex: '1 1 16rem' }}
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <NativeSelect
          label="Role"
          data={roles.map((role) => ({ value: role.id, label: role.name }))}
          key={form.key('roleId')}
          {...form.getInputProps('roleId')}
        />
        <Button type="submit" mt={25} loading={mutations.invite.isPending}>
          Invite
        </Button>
      </Group>
    </form>
  );
}

function PersonRow({
  person,
  roles,
  manage,
  isMe,
  mutations,
  organizationName,
  onError,
}: {
  person: OrganizationPerson;
  roles: OrganizationRole[];
  manage: boolean;
  isMe: boolean;
  mutations: Mutations;
  organizationName: string;
  onError: (message: string | null) => void;
}) {
  const dialogs = useDialogs();
  const success = useSuccessNotice();
  const editable = manage && !person.isOwner && !isMe;
  const label = person.name || person.email;
  const changing =
    mutations.changeRole.isPending && mutations.changeRole.variables?.userId === person.userId;
  const removing = mutations.remove.isPending && mutations.remove.variables === person.userId;

  const changeRole = async (roleId: string) => {
    onError(null);
    try {
      await mutations.changeRole.mutateAsync({ userId: person.userId, roleId });
      const name = roles.find((role) => role.id === roleId)?.name ?? 'another role';
      success(`${label} now holds the role ${name}.`);
    } catch (error) {
      onError(apiFailureMessage(error));
    }
  };
  const remove = async () => {
    const ok = await dialogs.confirm({
      title: 'Remove user',
      messageHtml: `<strong>${escapeHtml(label)}</strong> will leave the organization ${escapeHtml(organizationName)} and its teams.`,
      confirmLabel: 'Remove',
    });
    if (!ok) return;
    onError(null);
    try {
      await mutations.remove.mutateAsync(person.userId);
      success(`${label} was removed from the organization.`);
    } catch (error) {
      onError(apiFailureMessage(error));
    }
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600}>{person.name}</Text>
        <Text size="sm" c="gray.7">
          {person.email}
        </Text>
      </Table.Td>
      <Table.Td>
        {editable ? (
          <NativeSelect
            aria-label={`Role of ${label}`}
            data={roles.map((role) => ({ value: role.id, label: role.name }))}
            value={person.roleId ?? ''}
            disabled={changing}
            onChange={(event) => void changeRole(event.currentTarget.value)}
          />
        ) : (
          <Group gap={6}>
            <Text>{person.roleName}</Text>
            {isMe && <Badge variant="outline">You</Badge>}
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        {editable && (
          <Button
            variant="default"
            size="xs"
            loading={removing}
            onClick={() => void remove()}
            aria-label={`Remove ${label}`}
          >
            Remove
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function PendingInvitations({
  organizationId,
  mutations,
}: {
  organizationId: string;
  mutations: Mutations;
}) {
  const invitations = useOrganizationInvitationsQuery(organizationId, true);
  const success = useSuccessNotice();
  if (invitations.isPending) return <PageLoader />;
  if (invitations.isError) {
    return <Alert color="red" title="The invitations could not be loaded" />;
  }
  if (invitations.data.length === 0) return <Text c="gray.7">No pending invitations.</Text>;
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {invitations.data.map((invitation) => (
        <Group key={invitation.id} component="li" justify="space-between" wrap="wrap">
          <Text>
            {invitation.email} · {invitation.roleName}
          </Text>
          <Button
            variant="default"
            size="xs"
            aria-label={`Withdraw the invitation of ${invitation.email}`}
            loading={mutations.withdraw.isPending && mutations.withdraw.variables === invitation.id}
            onClick={() =>
              void mutations.withdraw
                .mutateAsync(invitation.id)
                .then(() => success(`The invitation of ${invitation.email} was withdrawn.`))
                .catch(() => undefined)
            }
          >
            Withdraw
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * organization/{org}/settings/users: the owner and the organization's users with their roles.
 * Holders of `users` change roles and remove people; holders of `invitations` invite by e-mail
 * (the mail carries a link that answers the invitation) and withdraw pending invitations. The
 * database enforces both; the page only hides what would be refused.
 */
export default function OrganizationUsersPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Users', productName);
  const viewer = useViewer();
  const organization = useOrganizationBySlugQuery(org);
  const organizationId = organization.data?.id ?? null;
  const people = useOrganizationPeopleQuery(organizationId);
  const roles = useOrganizationRolesQuery(organizationId);
  const mutations = useOrganizationUserMutations(organizationId ?? '');
  const [error, setError] = useState<string | null>(null);

  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null) {
    return <OrganizationUnavailable title="Users" loadFailed={organization.isError} />;
  }
  const { permissions } = organization.data;
  const manage = permissions.includes('users');
  const invite = permissions.includes('invitations');
  const organizationName = org;

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Users</Title>
          <Text mt="xs" c="gray.7">
            The people of the organization and the role each holds.
            {!manage && ' Only the owner and holders of the Users permission change roles.'}
          </Text>
        </div>
        <SettingsSection title="People">
          {people.isPending || roles.isPending ? (
            <PageLoader />
          ) : people.isError || roles.isError ? (
            <Alert color="red" title="The users could not be loaded" role="alert">
              <Button variant="light" size="xs" mt="xs" onClick={() => void people.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : (
            <Stack gap="sm">
              {error && (
                <Alert
                  color="red"
                  role="alert"
                  title={error}
                  onClose={() => setError(null)}
                  withCloseButton
                />
              )}
              <Table.ScrollContainer minWidth={480}>
                <Table verticalSpacing="sm" aria-label="Organization users">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>User</Table.Th>
                      <Table.Th>Role</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {people.data.map((person) => (
                      <PersonRow
                        key={person.userId}
                        person={person}
                        roles={roles.data}
                        manage={manage}
                        isMe={person.userId === viewer?.id}
                        mutations={mutations}
                        organizationName={organizationName}
                        onError={setError}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
          )}
        </SettingsSection>
        {invite && (
          <SettingsSection title="Invite a user">
            <Stack gap="md">
              {roles.data && <InviteForm roles={roles.data} mutations={mutations} />}
              <Title order={3} size="h5">
                Pending invitations
              </Title>
              <PendingInvitations organizationId={organization.data.id} mutations={mutations} />
            </Stack>
          </SettingsSection>
        )}
      </Stack>
    </Container>
  );
}
