import { Chip } from '@mui/material';
import {
  DataTable,
  DateField,
  Edit,
  List,
  ReferenceField,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  useRecordContext,
} from 'react-admin';

/**
 * support-requests: what organizations ask through their helpdesk (the portal's
 * organizations/{org}/helpdesk). Staff read every request and answer it; the database signs and
 * dates the answer and marks the request answered. What was asked never changes.
 */
export const STATES = [
  { id: 'open', name: 'Open' },
  { id: 'answered', name: 'Answered' },
  { id: 'closed', name: 'Closed' },
];

const STATE_COLORS: Record<string, 'info' | 'success' | 'default'> = {
  open: 'info',
  answered: 'success',
  closed: 'default',
};

export function StateChip({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const state = String(record.state);
  return (
    <Chip
      size="small"
      color={STATE_COLORS[state] ?? 'default'}
      label={STATES.find((choice) => choice.id === state)?.name ?? state}
    />
  );
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Subject or message" />,
  <SelectInput key="state" source="state" choices={STATES} alwaysOn />,
];

function SupportRequestList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }} exporter={false}>
      <DataTable rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col source="subject" />
        <DataTable.Col source="organization_id" label="Organization">
          <ReferenceField source="organization_id" reference="organizations" link="show">
            <TextField source="name" />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col source="author_id" label="From">
          <ReferenceField source="author_id" reference="users" link="show" emptyText="—">
            <TextField source="email" />
          </ReferenceField>
        </DataTable.Col>
        <DataTable.Col source="state">
          <StateChip />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Asked" field={DateField} />
      </DataTable>
    </List>
  );
}

function SupportRequestEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <SimpleForm>
        <ReferenceField source="organization_id" reference="organizations" link="show">
          <TextField source="name" />
        </ReferenceField>
        <TextField source="subject" />
        <TextField source="message" sx={{ whiteSpace: 'pre-wrap' }} />
        <DateField source="created_at" label="Asked" showTime />
        <TextInput source="answer" multiline minRows={4} fullWidth />
        <SelectInput source="state" choices={STATES} />
        <DateField source="answered_at" label="Answered" showTime emptyText="Not yet" />
      </SimpleForm>
    </Edit>
  );
}

export default { list: SupportRequestList, edit: SupportRequestEdit };
