import { ALIAS_STATUSES } from '@shortlane/shared/constants.ts';
import {
  BooleanInput,
  DataTable,
  DateField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { AliasBulkActions } from './statusActions.tsx';

export const aliasStatusChoices = ALIAS_STATUSES.map((id) => ({ id, name: id.replace('_', ' ') }));

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Alias, domain, URL or owner" />,
  <SelectInput key="status" source="status" choices={aliasStatusChoices} />,
  <TextInput key="domain" source="domain" />,
  <BooleanInput key="banned" source="host_banned" label="Destination banned" />,
];

/** Every short link: search by alias, domain, destination or owner; moderate in bulk. */
export function AliasList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25}>
      <DataTable rowClick="show" bulkActionButtons={<AliasBulkActions />}>
        <DataTable.Col source="alias" />
        <DataTable.Col source="domain" />
        <DataTable.Col
          source="url"
          label="Destination"
          render={(record) => (record.url.length > 60 ? `${record.url.slice(0, 57)}…` : record.url)}
        />
        <DataTable.Col source="status">
          <StatusChip />
        </DataTable.Col>
        <DataTable.Col source="host_banned" label="Banned" disableSort>
          <BooleanChip source="host_banned" text="banned domain" color="error" />
        </DataTable.Col>
        <DataTable.Col
          source="owner_email"
          label="Owner"
          render={(record) => record.owner_email ?? 'guest'}
        />
        <DataTable.NumberCol source="clicks" field={NumberField} />
        <DataTable.Col source="created_at" label="Created" field={DateField} />
      </DataTable>
    </List>
  );
}
