import { Chip } from '@mui/material';
import {
  DataTable,
  DateField,
  Edit,
  EmailField,
  Labeled,
  List,
  NumberField,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  useRecordContext,
} from 'react-admin';

/**
 * quote-requests: Enterprise quote requests from the portal's pricing/quote. Staff read each,
 * mark it answered or closed and keep a note; the database lets staff change only those two
 * columns (public.quote_requests).
 */
const STATES = [
  { id: 'new', name: 'New' },
  { id: 'answered', name: 'Answered' },
  { id: 'closed', name: 'Closed' },
];

function RequestState({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const name = STATES.find((state) => state.id === record.state)?.name ?? String(record.state);
  return <Chip size="small" label={name} color={record.state === 'new' ? 'warning' : 'default'} />;
}

function QuoteRequestList() {
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder="Name, e-mail or company" />,
        <SelectInput key="state" source="state" label="State" choices={STATES} />,
      ]}
      sort={{ field: 'created_at', order: 'DESC' }}
      exporter={false}
    >
      <DataTable rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col source="created_at" label="Asked" field={DateField} />
        <DataTable.Col source="name" />
        <DataTable.Col source="email" label="E-mail" field={EmailField} />
        <DataTable.Col source="company" label="Company">
          <TextField source="company" emptyText="—" />
        </DataTable.Col>
        <DataTable.NumberCol source="links_per_month" label="Links a month" field={NumberField} />
        <DataTable.NumberCol source="team_size" label="People" field={NumberField} />
        <DataTable.Col source="state" label="State">
          <RequestState />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

/** Staff answer requests; nobody deletes one (the table has no delete policy). */
function SaveOnly() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

function QuoteRequestEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm toolbar={<SaveOnly />}>
        <Labeled label="Name">
          <TextField source="name" />
        </Labeled>
        <Labeled label="E-mail">
          <EmailField source="email" />
        </Labeled>
        <Labeled label="Company">
          <TextField source="company" emptyText="—" />
        </Labeled>
        <Labeled label="Links a month">
          <NumberField source="links_per_month" />
        </Labeled>
        <Labeled label="People who will use it">
          <NumberField source="team_size" />
        </Labeled>
        <Labeled label="Message">
          <TextField source="message" emptyText="—" />
        </Labeled>
        <Labeled label="Asked">
          <DateField source="created_at" showTime />
        </Labeled>
        <SelectInput source="state" label="State" choices={STATES} />
        <TextInput source="staff_note" label="Staff note" multiline fullWidth />
      </SimpleForm>
    </Edit>
  );
}

export default { list: QuoteRequestList, edit: QuoteRequestEdit };
