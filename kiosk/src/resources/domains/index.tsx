import {
  BooleanInput,
  DataTable,
  DateField,
  Edit,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  UrlField,
} from 'react-admin';
import { BooleanChip } from '../../components/BooleanChip.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { DOMAIN_FLAGS, domainChanges, verifiedFormat, verifiedParse } from './domainFlags.ts';
import { YesNoField } from '../../components/YesNoField.tsx';

const KINDS = ['common', 'organization', 'branded'].map((id) => ({ id, name: id }));

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Domain or owner" />,
  <SelectInput key="kind" source="kind" choices={KINDS} />,
  <SelectInput
    key="verification"
    source="verification_status"
    choices={['pending', 'verified', 'failed'].map((id) => ({ id, name: id }))}
  />,
  <BooleanInput key="blocked" source="is_blocked" label="Blocked" />,
];

function DomainList() {
  return (
    <List filters={filters} sort={{ field: 'domain', order: 'ASC' }}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="domain" />
        <DataTable.Col source="kind" />
        <DataTable.Col
          source="account_name"
          label="Owner"
          render={(record) => record.account_name ?? 'Shortlane'}
        />
        <DataTable.Col source="verification_status" label="Verification">
          <StatusChip source="verification_status" />
        </DataTable.Col>
        <DataTable.Col source="allow_for_guests" label="Guests" field={YesNoField} />
        <DataTable.Col source="subscribed_only" label="Subscribers only" field={YesNoField} />
        <DataTable.Col source="is_blocked" label="Blocked" disableSort>
          <BooleanChip source="is_blocked" text="blocked" color="error" />
        </DataTable.Col>
        <DataTable.NumberCol source="links_count" label="Links" field={NumberField} />
      </DataTable>
    </List>
  );
}

/** domain/{domain}: the domain's flags, owner, redirects and links. */
function DomainShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="domain" />
        <TextField source="kind" />
        <TextField source="account_name" label="Owner" emptyText="Shortlane" />
        <StatusChip source="verification_status" label="Verification" />
        <DateField source="verified_at" label="Verified" showTime emptyText="—" />
        {DOMAIN_FLAGS.map(({ source, label }) => (
          <YesNoField key={source} source={source} label={label} />
        ))}
        <NumberField source="redirect_status" label="Redirect status" />
        <UrlField source="root_redirect_url" label="Root redirect" emptyText="—" />
        <UrlField source="not_found_redirect_url" label="404 redirect" emptyText="—" />
        <NumberField source="links_count" label="Links" />
      </SimpleShowLayout>
    </Show>
  );
}

function DomainEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      transform={(values, options) => domainChanges(values, options?.previousData)}
      redirect="show"
    >
      <SimpleForm>
        <TextField source="domain" />
        {DOMAIN_FLAGS.map(({ source, label }) => (
          <BooleanInput key={source} source={source} label={label} />
        ))}
        <BooleanInput
          source="verification_status"
          label="Verified"
          format={verifiedFormat}
          parse={verifiedParse}
        />
      </SimpleForm>
    </Edit>
  );
}

export default { list: DomainList, show: DomainShow, edit: DomainEdit };
