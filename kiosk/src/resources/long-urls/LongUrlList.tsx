import { URL_STATUSES } from '@shortlane/shared/constants.ts';
import {
  BooleanInput,
  BulkUpdateButton,
  DataTable,
  DateField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';

export const LONG_URL_STATUS_ACTIONS = [
  { label: 'Terminate for abuse', status: 'terminated' },
  { label: 'Deactivate', status: 'inactive' },
  { label: 'Restore', status: 'active' },
] as const;

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="URL or owner" />,
  <SelectInput
    key="status"
    source="status"
    choices={URL_STATUSES.map((id) => ({ id, name: id }))}
  />,
  <BooleanInput key="banned" source="host_banned" label="Domain banned" />,
];

function LongUrlBulkActions() {
  return (
    <>
      {LONG_URL_STATUS_ACTIONS.map(({ label, status }) => (
        <BulkUpdateButton
          key={status}
          label={label}
          data={{ status }}
          mutationMode="pessimistic"
          confirmTitle={`${label}: change the selected destinations?`}
          confirmContent={`Their status becomes "${status}". A terminated destination cannot be linked to again.`}
        />
      ))}
    </>
  );
}

/** Every destination: search by URL or owner; terminate abusive ones in bulk. */
export function LongUrlList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25}>
      <DataTable rowClick="show" bulkActionButtons={<LongUrlBulkActions />}>
        <DataTable.Col source="url" label="Destination" />
        <DataTable.Col source="host" />
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
        <DataTable.NumberCol source="aliases_count" label="Aliases" field={NumberField} />
        <DataTable.NumberCol source="clicks" field={NumberField} />
        <DataTable.Col source="created_at" label="Created" field={DateField} />
      </DataTable>
    </List>
  );
}
