import { Select } from '@mantine/core';
import type { WebhookAccount } from '../../data/webhooks/accounts-query.ts';

const KIND_LABELS: Record<WebhookAccount['kind'], string> = {
  personal: 'Personal workspace',
  team: 'Team',
  organization: 'Organization',
};

/** How an account reads in the picker and in notices: "Personal workspace", "Acme (organization)". */
export function webhookAccountLabel(account: WebhookAccount): string {
  return account.kind === 'personal'
    ? KIND_LABELS.personal
    : `${account.name} (${KIND_LABELS[account.kind].toLowerCase()})`;
}

interface Props {
  accounts: readonly WebhookAccount[];
  value: string;
  onChange: (accountId: string) => void;
}

/** Which account's webhooks the page shows: the user's personal workspace, a team, an organization. */
export function WebhookAccountPicker({ accounts, value, onChange }: Props) {
  return (
    <Select
      label="Account"
      description="Webhooks belong to one account; pick whose endpoints to manage."
      data={accounts.map((account) => ({
        value: account.accountId,
        label: webhookAccountLabel(account),
      }))}
      value={value}
      allowDeselect={false}
      checkIconPosition="right"
      maw={420}
      onChange={(accountId) => accountId && onChange(accountId)}
    />
  );
}
