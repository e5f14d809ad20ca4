import {
  BooleanInput,
  DataTable,
  DateField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';

export const SUBSCRIPTION_STATES = [
  'free',
  'trial',
  'active',
  'grace',
  'past_due',
  'incomplete',
].map((id) => ({ id, name: id.replace('_', ' ') }));

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="E-mail or name" />,
  <SelectInput key="state" source="subscription_state" choices={SUBSCRIPTION_STATES} />,
  <BooleanInput key="banned" source="is_banned" label="Banned" />,
  <BooleanInput key="staff" source="is_developer" label="Staff" />,
];

/** The kiosk's home: every user, newest first, searchable by e-mail or name. */
export function UserList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="email" />
        <DataTable.Col source="name" />
        <DataTable.Col source="plan" />
        <DataTable.Col source="subscription_state" label="Subscription" />
        <DataTable.NumberCol source="links_count" label="Links" field={NumberField} />
        <DataTable.Col source="is_banned" label="Banned" disableSort>
          <BooleanChip source="is_banned" text="banned" color="error" />
        </DataTable.Col>
        <DataTable.Col source="is_developer" label="Staff" disableSort>
          <BooleanChip source="is_developer" text="staff" color="info" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Signed up" field={DateField} />
        <DataTable.Col source="last_sign_in_at" label="Last sign-in" field={DateField} />
      </DataTable>
    </List>
  );
}
