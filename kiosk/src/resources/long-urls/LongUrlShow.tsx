import {
  DataTable,
  DateField,
  NumberField,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  UpdateButton,
  UrlField,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { LONG_URL_STATUS_ACTIONS } from './LongUrlList.tsx';

/** A destination, its owner and every alias pointing at it. */
export function LongUrlShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          {LONG_URL_STATUS_ACTIONS.map(({ label, status }) => (
            <UpdateButton key={status} label={label} data={{ status }} mutationMode="pessimistic" />
          ))}
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <UrlField source="url" label="Destination" target="_blank" rel="noreferrer" />
        <TextField source="host" />
        <StatusChip label="Status" />
        <BooleanChip source="host_banned" text="domain banned" color="error" label="Banned" />
        <TextField source="owner_email" label="Owner" emptyText="guest" />
        <TextField source="account_name" label="Workspace" emptyText="guest" />
        <NumberField source="clicks" label="Clicks (all time)" />
        <DateField source="created_at" label="Created" showTime />
        <ReferenceManyField reference="aliases" target="long_url_id" label="Aliases">
          <DataTable rowClick="show" bulkActionButtons={false}>
            <DataTable.Col source="domain" />
            <DataTable.Col source="alias" />
            <DataTable.Col source="status">
              <StatusChip />
            </DataTable.Col>
            <DataTable.NumberCol source="clicks" field={NumberField} />
          </DataTable>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}
