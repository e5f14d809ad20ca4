import {
  BooleanInput,
  Create,
  CreateButton,
  DataTable,
  DateField,
  List,
  ReferenceManyField,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  UpdateButton,
  useRecordContext,
} from 'react-admin';
import { SurveyResults } from './SurveyResults.tsx';
import { YesNoField } from '../../components/YesNoField.tsx';

/** surveys and surveys/{survey}: the onboarding surveys, their questions and answers. */
function SurveyList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn />]}
      sort={{ field: 'created_at', order: 'DESC' }}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="name" />
        <DataTable.Col source="title" />
        <DataTable.Col source="is_active" label="Active" field={YesNoField} />
        <DataTable.Col source="created_at" label="Created" field={DateField} />
      </DataTable>
    </List>
  );
}

function SurveyShowActions() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <TopToolbar>
      <CreateButton
        resource="survey_questions"
        label="Add question"
        state={{ record: { survey_id: record.id, kind: 'single', required: false } }}
      />
      <UpdateButton
        label={record.is_active ? 'Deactivate' : 'Activate'}
        data={{ is_active: !record.is_active }}
        mutationMode="pessimistic"
      />
    </TopToolbar>
  );
}

function SurveyShow() {
  return (
    <Show actions={<SurveyShowActions />}>
      <SimpleShowLayout>
        <TextField source="title" />
        <TextField source="name" />
        <YesNoField source="is_active" label="Active (shown to users)" />
        <ReferenceManyField
          reference="survey_results"
          target="survey_id"
          sort={{ field: 'position', order: 'ASC' }}
          perPage={100}
          label="Questions and answers"
        >
          <SurveyResults />
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function SurveyCreate() {
  return (
    <Create redirect="show">
      <SimpleForm defaultValues={{ is_active: false }}>
        <TextInput
          source="name"
          helperText="Lower-case letters, numbers and dashes, e.g. onboarding."
          validate={(value: string) =>
            SLUG.test(value ?? '') ? undefined : 'Use lower-case letters, numbers and dashes.'
          }
        />
        <TextInput
          source="title"
          validate={(value: string) => (value?.trim() ? undefined : 'Enter a title.')}
        />
        <BooleanInput source="is_active" label="Active" />
      </SimpleForm>
    </Create>
  );
}

export default { list: SurveyList, show: SurveyShow, create: SurveyCreate };
