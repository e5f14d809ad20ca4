import {
  Create,
  DataTable,
  DateField,
  List,
  SearchInput,
  SimpleForm,
  TextInput,
} from 'react-admin';

/**
 * password_dictionary: words nobody may choose as a password; Auth refuses them at sign-up and
 * password change (weak_password). Stored lower-case; matched whatever the case.
 */
function WordList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'word', order: 'ASC' }}
      perPage={50}
    >
      <DataTable>
        <DataTable.Col source="word" />
        <DataTable.Col source="created_at" label="Added" field={DateField} />
      </DataTable>
    </List>
  );
}

const lowerCase = (value: string) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
const required = (value: string) => (value ? undefined : 'Enter a word.');

function WordCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TextInput source="word" parse={lowerCase} validate={required} />
      </SimpleForm>
    </Create>
  );
}

export default { list: WordList, create: WordCreate };
