import { SsoDomains } from './SsoDomains.tsx';
import { Chip } from '@mui/material';
import type { ReactNode } from 'react';
import {
  DataTable,
  DateField,
  List,
  NumberField,
  ReferenceField,
  ReferenceManyField,
  SearchInput,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
} from 'react-admin';

/**
 * organizations and teams: read-only, for support. Staff see who owns each, its plan, whether it
 * is archived, its people with their roles and its size; the owner and every member open on the
 * users resource, where impersonation lives. Archiving stays the owner's decision (the portal's
 * restore-organization flow).
 */
export function ArchiveState({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  return record.archived_at ? (
    <Chip size="small" color="warning" label="archived" />
  ) : (
    <Chip size="small" color="success" label="active" />
  );
}

function OwnerField({ label: _label }: { label?: string }) {
  return (
    <ReferenceField source="owner_id" reference="users" link="show">
      <TextField source="email" />
    </ReferenceField>
  );
}

/**
 * A list of organizations or teams: searchable, newest first, each row opening its record; the
 * columns of its own first, then what both share (owner, plan, state, counts, created).
 */
function AccountList({
  placeholder,
  counts,
  children,
}: {
  placeholder: string;
  counts: readonly { source: string; label: string }[];
  children: ReactNode;
}) {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder={placeholder} />]}
      sort={{ field: 'created_at', order: 'DESC' }}
      exporter={false}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        {children}
        <DataTable.Col source="owner_email" label="Owner" />
        <DataTable.Col source="plan" />
        <DataTable.Col source="archived_at" label="State">
          <ArchiveState />
        </DataTable.Col>
        {counts.map((count) => (
          <DataTable.NumberCol
            key={count.source}
            source={count.source}
            label={count.label}
            field={NumberField}
          />
        ))}
        <DataTable.Col source="created_at" label="Created" field={DateField} />
      </DataTable>
    </List>
  );
}

function OrganizationList() {
  return (
    <AccountList
      placeholder="Name, slug or owner"
      counts={[
        { source: 'users_count', label: 'Users' },
        { source: 'teams_count', label: 'Teams' },
        { source: 'links_count', label: 'Links' },
      ]}
    >
      <DataTable.Col source="name" />
      <DataTable.Col source="slug" />
    </AccountList>
  );
}

function OrganizationShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <OwnerField label="Owner" />
        <TextField source="plan" />
        <ArchiveState label="State" />
        <DateField source="archived_at" label="Archived" showTime emptyText="—" />
        <NumberField source="links_count" label="Links" />
        <SsoDomains label="Single sign-on domains" />
        <ReferenceManyField
          reference="organization_users"
          target="organization_id"
          sort={{ field: 'created_at', order: 'ASC' }}
          perPage={100}
          label="Users"
        >
          <DataTable bulkActionButtons={false} rowClick={false}>
            <DataTable.Col source="email">
              <ReferenceField source="user_id" reference="users" link="show">
                <TextField source="email" />
              </ReferenceField>
            </DataTable.Col>
            <DataTable.Col source="name" />
            <DataTable.Col source="role_name" label="Role" />
            <DataTable.Col source="permissions" />
            <DataTable.Col source="created_at" label="Since" field={DateField} />
          </DataTable>
        </ReferenceManyField>
        <ReferenceManyField
          reference="teams"
          target="organization_id"
          sort={{ field: 'name', order: 'ASC' }}
          perPage={100}
          label="Teams"
        >
          <DataTable bulkActionButtons={false} rowClick="show">
            <DataTable.Col source="name" />
            <DataTable.Col source="archived_at" label="State">
              <ArchiveState />
            </DataTable.Col>
            <DataTable.NumberCol source="members_count" label="Members" field={NumberField} />
            <DataTable.NumberCol source="links_count" label="Links" field={NumberField} />
          </DataTable>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}

function TeamList() {
  return (
    <AccountList
      placeholder="Name, organization or owner"
      counts={[
        { source: 'members_count', label: 'Members' },
        { source: 'links_count', label: 'Links' },
      ]}
    >
      <DataTable.Col source="name" />
      <DataTable.Col source="organization_name" label="Organization">
        <TextField source="organization_name" emptyText="— (standalone)" />
      </DataTable.Col>
    </AccountList>
  );
}

function TeamShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <ReferenceField
          source="organization_id"
          reference="organizations"
          link="show"
          label="Organization"
          emptyText="— (standalone)"
        >
          <TextField source="name" />
        </ReferenceField>
        <OwnerField label="Owner" />
        <TextField source="plan" />
        <ArchiveState label="State" />
        <NumberField source="links_count" label="Links" />
        <ReferenceManyField
          reference="team_members"
          target="team_id"
          sort={{ field: 'created_at', order: 'ASC' }}
          perPage={100}
          label="Members"
        >
          <DataTable bulkActionButtons={false} rowClick={false}>
            <DataTable.Col source="email">
              <ReferenceField source="user_id" reference="users" link="show">
                <TextField source="email" />
              </ReferenceField>
            </DataTable.Col>
            <DataTable.Col source="name" />
            <DataTable.Col source="role" />
            <DataTable.Col source="created_at" label="Since" field={DateField} />
          </DataTable>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}

export const organizations = { list: OrganizationList, show: OrganizationShow };
export const teams = { list: TeamList, show: TeamShow };
