import {
  BulkUpdateButton,
  Create,
  DataTable,
  DateField,
  Edit,
  List,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextInput,
  TopToolbar,
  UpdateButton,
  useRecordContext,
} from 'react-admin';

/**
 * announcements: written here, shown to every signed-in user in the portal's bell once
 * published (published_at set and not in the future). A draft has no published_at.
 */
export const publishNow = () => ({ published_at: new Date().toISOString() });

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Title or text" />,
  <SelectInput
    key="published"
    source="published_at@is"
    label="State"
    choices={[{ id: 'null', name: 'Draft' }]}
  />,
];

function PublishedState() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <span>{record.published_at ? new Date(record.published_at).toLocaleString() : 'Draft'}</span>
  );
}

function AnnouncementList() {
  return (
    <List filters={filters} sort={{ field: 'created_at', order: 'DESC' }}>
      <DataTable
        rowClick="edit"
        bulkActionButtons={
          <BulkUpdateButton
            label="Publish"
            data={publishNow()}
            mutationMode="pessimistic"
            confirmTitle="Publish the selected announcements?"
            confirmContent="Every signed-in user will see them in the portal."
          />
        }
      >
        <DataTable.Col source="title" />
        <DataTable.Col source="published_at" label="Published">
          <PublishedState />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Written" field={DateField} />
      </DataTable>
    </List>
  );
}

const validateUrl = (value: string) =>
  !value || /^https?:\/\/\S+$/.test(value) ? undefined : 'Enter an http(s) address.';
const required = (what: string) => (value: string) =>
  value?.trim() ? undefined : `Enter the ${what}.`;

const announcementFields = [
  <TextInput key="title" source="title" validate={required('title')} />,
  <TextInput key="body" source="body" multiline minRows={4} validate={required('text')} />,
  <TextInput key="url" source="url" label="Link (optional)" validate={validateUrl} />,
];

function PublishButton() {
  const record = useRecordContext();
  if (!record) return null;
  return record.published_at ? (
    <UpdateButton
      label="Unpublish"
      data={{ published_at: null }}
      mutationMode="pessimistic"
      confirmTitle="Unpublish this announcement?"
      confirmContent="Users will no longer see it in the portal."
    />
  ) : (
    <UpdateButton
      label="Publish"
      data={publishNow()}
      mutationMode="pessimistic"
      confirmTitle="Publish this announcement?"
      confirmContent="Every signed-in user will see it in the portal."
    />
  );
}

function AnnouncementEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <PublishButton />
        </TopToolbar>
      }
    >
      <SimpleForm>{announcementFields}</SimpleForm>
    </Edit>
  );
}

function AnnouncementCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm>{announcementFields}</SimpleForm>
    </Create>
  );
}

export default { list: AnnouncementList, edit: AnnouncementEdit, create: AnnouncementCreate };
