import { Chip } from '@mui/material';
import {
  BooleanInput,
  DataTable,
  DateField,
  NumberField,
  ReferenceManyField,
  SearchInput,
  Show,
  SimpleShowLayout,
  TextField,
  List,
  useRecordContext,
} from 'react-admin';

/**
 * webhooks: customers' outgoing webhook endpoints, read-only. Staff see where each account
 * sends its events, which endpoints are failing or were disabled after failures, and the
 * failed attempts; the signing secrets are never shown (nor readable by staff).
 */
function EndpointState({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  if (record.enabled) return <Chip size="small" label="enabled" color="success" />;
  return (
    <Chip
      size="small"
      color="error"
      label={record.disabled_reason === 'failing' ? 'disabled: failing' : 'disabled'}
    />
  );
}

function EndpointList() {
  return (
    <List
      filters={[
        <SearchInput key="q" source="q" alwaysOn placeholder="URL or account" />,
        <BooleanInput key="enabled" source="enabled" label="Enabled" />,
      ]}
      sort={{ field: 'created_at', order: 'DESC' }}
      exporter={false}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="url" />
        <DataTable.Col source="account_name" label="Account" />
        <DataTable.Col source="enabled" label="State">
          <EndpointState />
        </DataTable.Col>
        <DataTable.NumberCol source="failed_deliveries" label="Failed" field={NumberField} />
        <DataTable.NumberCol source="retrying_deliveries" label="Retrying" field={NumberField} />
        <DataTable.Col source="last_failure_at" label="Last failure">
          <DateField source="last_failure_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="Created" field={DateField} />
      </DataTable>
    </List>
  );
}

function EndpointShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="url" />
        <TextField source="description" emptyText="—" />
        <TextField source="account_name" label="Account" />
        <TextField source="account_kind" label="Account kind" />
        <EndpointState label="State" />
        <DateField source="disabled_at" label="Disabled" showTime emptyText="—" />
        <TextField source="events" />
        <NumberField source="failed_deliveries" label="Failed deliveries" />
        <NumberField source="retrying_deliveries" label="Retrying deliveries" />
        <ReferenceManyField
          reference="webhook_attempts"
          target="endpoint_id"
          filter={{ succeeded: false }}
          sort={{ field: 'attempted_at', order: 'DESC' }}
          perPage={25}
          label="Failed attempts"
        >
          <DataTable bulkActionButtons={false}>
            <DataTable.Col source="attempted_at" label="When">
              <DateField source="attempted_at" showTime />
            </DataTable.Col>
            <DataTable.NumberCol source="response_status" label="Response" />
            <DataTable.NumberCol source="latency_ms" label="Latency (ms)" />
            <DataTable.Col source="error" />
          </DataTable>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}

export default { list: EndpointList, show: EndpointShow };
