import {
  Create,
  CreateButton,
  DataTable,
  DateField,
  List,
  SearchInput,
  SimpleForm,
  TextInput,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { ActionButton, notifyFailure } from '../../components/ActionButton.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';
import { normalizeDomainName, validateDomainName } from '../../components/domainName.ts';

/**
 * cloudflare/zones: DNS zones at the provider (Cloudflare, or the local sandbox). The list reads
 * public.dns_zones; creating, deleting and syncing go through kiosk-dns, which keeps the provider
 * and the table in step.
 */
function SyncButton() {
  const dataProvider = useKioskDataProvider();
  return (
    <ActionButton
      label="Sync with provider"
      run={async () => {
        const zones = await dataProvider.callFunction<unknown[]>('kiosk-dns', { action: 'sync' });
        return { message: 'kiosk.zones.synced', args: { smart_count: zones.length } };
      }}
    />
  );
}

function DeleteZoneButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record) return null;
  return (
    <ActionButton
      label="Delete"
      color="error"
      confirm={{
        title: `Delete the zone ${record.name}?`,
        content: 'The zone and its DNS records are removed at the provider.',
      }}
      run={async () => {
        await dataProvider.callFunction('kiosk-dns', { action: 'delete', id: record.id });
        return { message: 'kiosk.zones.deleted' };
      }}
    />
  );
}

function ZoneList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Zone" />]}
      sort={{ field: 'name', order: 'ASC' }}
      actions={
        <TopToolbar>
          <SyncButton />
          <CreateButton />
        </TopToolbar>
      }
    >
      <DataTable bulkActionButtons={false}>
        <DataTable.Col source="name" label="Zone" />
        <DataTable.Col source="status">
          <StatusChip />
        </DataTable.Col>
        <DataTable.Col
          source="nameservers"
          label="Name servers"
          disableSort
          render={(record) => (record.nameservers as string[]).join(', ')}
        />
        <DataTable.Col source="zone_id" label="Provider id" />
        <DataTable.Col source="updated_at" label="Updated" field={DateField} />
        <DataTable.Col label="" disableSort>
          <DeleteZoneButton />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}

function ZoneCreate() {
  const dataProvider = useKioskDataProvider();
  const notify = useNotify();
  const redirect = useRedirect();
  const create = async (values: Record<string, unknown>) => {
    try {
      await dataProvider.callFunction('kiosk-dns', { action: 'create', name: values.name });
      notify('kiosk.zones.created', { type: 'success' });
      redirect('list', 'cloudflare/zones');
    } catch (error) {
      const body = (error as { body?: { errors?: Record<string, string[]> } }).body;
      // Field errors show under the field; anything else as a notice.
      if (body?.errors)
        return Object.fromEntries(Object.entries(body.errors).map(([k, v]) => [k, v[0]]));
      notifyFailure(notify, error);
    }
  };
  return (
    <Create>
      <SimpleForm onSubmit={create}>
        <TextInput
          source="name"
          label="Zone (domain)"
          parse={normalizeDomainName}
          validate={validateDomainName}
        />
      </SimpleForm>
    </Create>
  );
}

export default { list: ZoneList, create: ZoneCreate };
