import { DataTable, DateField, ReferenceManyField, TextField, useRecordContext } from 'react-admin';
import { ActionButton } from '../../components/ActionButton.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';

/**
 * Proves a claimed e-mail domain for the organization's single sign-on by staff (when the
 * customer cannot publish the DNS record), then hands the verified domains to Auth (org-sso sync).
 */
function VerifyButton() {
  const record = useRecordContext();
  const dataProvider = useKioskDataProvider();
  if (!record || record.status !== 'pending') return null;
  return (
    <ActionButton
      label="Verify"
      confirm={{
        title: `Verify ${String(record.domain)} for single sign-on?`,
        content:
          'People with addresses at this domain will sign in through the organization’s identity provider, and join it on their first sign-in.',
      }}
      run={async () => {
        await dataProvider.rpc('kiosk_verify_sso_domain', { p_domain_id: record.id });
        await dataProvider.callFunction('org-sso', {
          action: 'sync',
          organization_id: record.organization_id,
        });
        return { message: 'kiosk.sso.verified' };
      }}
    />
  );
}

/** The organization's claimed single sign-on domains, on its kiosk page. */
export function SsoDomains({ label: _label }: { label?: string }) {
  return (
    <ReferenceManyField
      reference="sso-domains"
      target="organization_id"
      sort={{ field: 'domain', order: 'ASC' }}
      perPage={100}
      label="Single sign-on domains"
      empty={<span>No domains claimed.</span>}
    >
      <DataTable bulkActionButtons={false} rowClick={false}>
        <DataTable.Col source="domain" />
        <DataTable.Col source="status" label="State">
          <StatusChip source="status" />
        </DataTable.Col>
        <DataTable.Col source="verified_by" label="Verified by">
          <TextField source="verified_by" emptyText="—" />
        </DataTable.Col>
        <DataTable.Col source="verified_at" label="Verified">
          <DateField source="verified_at" showTime emptyText="—" />
        </DataTable.Col>
        <DataTable.Col label="Actions">
          <VerifyButton />
        </DataTable.Col>
      </DataTable>
    </ReferenceManyField>
  );
}
