import {
  Create,
  DataTable,
  DateField,
  DateTimeInput,
  Edit,
  List,
  SearchInput,
  SimpleForm,
  TextInput,
} from 'react-admin';
import { validateIpRange } from './ipRange.ts';

/**
 * ips: blocked addresses and ranges (public.ip_blocks). The redirect reads them (app
 * .is_ip_blocked); an optional expiry lifts a block by itself. Unblocking deletes the row.
 */
function IpList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Reason" />]}
      sort={{ field: 'created_at', order: 'DESC' }}
    >
      <DataTable rowClick="edit">
        <DataTable.Col source="range" label="Address or range" />
        <DataTable.Col source="reason" />
        <DataTable.Col source="expires_at" label="Expires">
          <DateField source="expires_at" emptyText="Never" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Blocked" field={DateField} />
      </DataTable>
    </List>
  );
}

const ipForm = (
  <SimpleForm>
    <TextInput source="range" label="Address or range" validate={validateIpRange} />
    <TextInput source="reason" multiline />
    <DateTimeInput source="expires_at" label="Expires (empty: never)" />
  </SimpleForm>
);

const IpCreate = () => <Create redirect="list">{ipForm}</Create>;
const IpEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    {ipForm}
  </Edit>
);

export default { list: IpList, create: IpCreate, edit: IpEdit };
