import {
  Create,
  DataTable,
  DateField,
  Edit,
  List,
  SearchInput,
  SimpleForm,
  TextInput,
} from 'react-admin';
import { normalizeDomainName, validateDomainName } from '../../components/domainName.ts';

/**
 * banned_domains: destinations nobody may link to, with their subdomains. New links are refused
 * (url_banned); existing ones stop redirecting, and every redirect cache drops what it held.
 */
function BannedDomainList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Domain or reason" />]}
      sort={{ field: 'created_at', order: 'DESC' }}
    >
      <DataTable rowClick="edit">
        <DataTable.Col source="domain" />
        <DataTable.Col source="reason" />
        <DataTable.Col source="created_at" label="Banned" field={DateField} />
      </DataTable>
    </List>
  );
}

function BannedDomainCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TextInput
          source="domain"
          parse={normalizeDomainName}
          validate={validateDomainName}
          helperText="Its subdomains are banned too."
        />
        <TextInput source="reason" multiline />
      </SimpleForm>
    </Create>
  );
}

function BannedDomainEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <TextInput source="domain" disabled />
        <TextInput source="reason" multiline />
      </SimpleForm>
    </Edit>
  );
}

export default { list: BannedDomainList, create: BannedDomainCreate, edit: BannedDomainEdit };
