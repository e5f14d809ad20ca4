import { Chip, Stack } from '@mui/material';
import type { MouseEvent } from 'react';
import {
  DataTable,
  DateField,
  List,
  ReferenceManyField,
  SearchInput,
  useRecordContext,
} from 'react-admin';
import { ActionButton } from '../../components/ActionButton.tsx';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';

/**
 * api-tokens: customers' API tokens (public.kiosk_api_tokens), with the account they act for,
 * who made them and when they were last used. Staff never see a hash or a secret (the view has
 * neither); they can revoke a token (public.kiosk_revoke_api_token), which refuses its next
 * API call.
 */

function Abilities({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  const abilities = (record?.abilities ?? []) as string[];
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {abilities.map((ability) => (
        <Chip key={ability} label={ability} size="small" variant="outlined" />
      ))}
    </Stack>
  );
}

/** Revoke, after a confirmation; the list refreshes without the token. */
function RevokeTokenButton({ label: _label }: { label?: string }) {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record) return null;
  // Clicks (the dialog's too: React bubbles through portals) must not reach the row.
  const keep = (event: MouseEvent) => event.stopPropagation();
  return (
    <span onClick={keep}>
      <ActionButton
        label="Revoke"
        color="error"
        confirm={{
          title: `Revoke the API token “${record.name}”?`,
          content: `Programs using ${record.token_prefix}… are refused from their next call. This cannot be undone.`,
        }}
        run={async () => {
          await dataProvider.rpc('kiosk_revoke_api_token', { p_token_id: record.id });
          return { message: 'kiosk.api_tokens.revoked', args: { name: record.name } };
        }}
      />
    </span>
  );
}

/** The columns both lists show; the user's page leaves out whose tokens they are. */
function TokenColumns({ withCreator }: { withCreator: boolean }) {
  return (
    <DataTable rowClick={false} bulkActionButtons={false}>
      <DataTable.Col source="name" />
      <DataTable.Col source="token_prefix" label="Token" />
      <DataTable.Col source="abilities" label="Abilities" disableSort>
        <Abilities />
      </DataTable.Col>
      <DataTable.Col source="account_name" label="Account" />
      {withCreator && <DataTable.Col source="created_by_email" label="Created by" />}
      <DataTable.Col source="last_used_at" label="Last used">
        <DateField source="last_used_at" showTime emptyText="Never" />
      </DataTable.Col>
      <DataTable.Col source="expires_at" label="Expires">
        <DateField source="expires_at" showTime emptyText="Never" />
      </DataTable.Col>
      <DataTable.Col source="created_at" label="Created" field={DateField} />
      <DataTable.Col label="Actions" disableSort>
        <RevokeTokenButton />
      </DataTable.Col>
    </DataTable>
  );
}

function TokenList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Name, token or account" />]}
      sort={{ field: 'created_at', order: 'DESC' }}
      exporter={false}
    >
      <TokenColumns withCreator />
    </List>
  );
}

/** A user's page: the tokens they created, for their own account or a team's. */
export function UserApiTokens({ label: _label }: { label?: string }) {
  return (
    <ReferenceManyField
      reference="api-tokens"
      target="created_by"
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      empty={<span>No API tokens</span>}
    >
      <TokenColumns withCreator={false} />
    </ReferenceManyField>
  );
}

export default { list: TokenList };
