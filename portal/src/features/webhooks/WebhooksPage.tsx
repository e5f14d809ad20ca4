import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  useWebhookAccountsQuery,
  type WebhookAccount,
} from '../../data/webhooks/accounts-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { webhookAccountLabel, WebhookAccountPicker } from './WebhookAccountPicker.tsx';
import { WebhooksPanel } from './WebhooksPanel.tsx';

/** The query parameter naming the account shown, so a team's or organization's page can be linked. */
const ACCOUNT_PARAM = 'account';

/**
 * settings/webhooks: the webhooks of one account the signed-in person manages (their personal
 * workspace, or a team or organization chosen in the picker), or the Enterprise upsell when
 * there is none.
 */
export default function WebhooksPage() {
  const { productName } = useConfig();
  usePageTitle('Webhooks', productName);
  const accounts = useWebhookAccountsQuery();
  const [params, setParams] = useSearchParams();

  return (
    <Stack gap="lg">
      <Title order={1}>Webhooks</Title>
      <Text>
        Send events about your links to your own servers as they happen, signed the Standard
        Webhooks way so that you can check they come from us.
      </Text>
      {accounts.isPending ? (
        <PageLoader />
      ) : accounts.isError ? (
        <Alert color="red" title="Your accounts could not be loaded">
          <Button variant="light" size="xs" mt="xs" onClick={() => void accounts.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : accounts.data.length === 0 ? (
        <Alert color="blue" title="Webhooks are part of the Enterprise plan">
          <Text size="sm">
            Upgrade to receive link, click, bulk and domain events on your own endpoints.{' '}
            <Anchor component={Link} to={href('signup.pricing')}>
              See plans
            </Anchor>
          </Text>
        </Alert>
      ) : (
        <AccountWebhooks
          accounts={accounts.data}
          requested={params.get(ACCOUNT_PARAM)}
          onPick={(accountId) => setParams({ [ACCOUNT_PARAM]: accountId })}
        />
      )}
    </Stack>
  );
}

interface AccountWebhooksProps {
  accounts: readonly WebhookAccount[];
  requested: string | null;
  onPick: (accountId: string) => void;
}

function AccountWebhooks({ accounts, requested, onPick }: AccountWebhooksProps) {
  // The list puts the personal workspace first (when its plan has webhooks): an account the link
  // names but the user cannot manage falls back to it.
  const fallback = accounts[0]!;
  const chosen = accounts.find((account) => account.accountId === requested);
  const shown = chosen ?? fallback;

  return (
    <>
      {requested !== null && chosen === undefined && (
        <Alert color="yellow" title="Account not available">
          The link names an account whose webhooks you cannot manage, or that does not exist.
          Showing {webhookAccountLabel(fallback)} instead.
        </Alert>
      )}
      {accounts.length > 1 && (
        <WebhookAccountPicker accounts={accounts} value={shown.accountId} onChange={onPick} />
      )}
      <WebhooksPanel key={shown.accountId} accountId={shown.accountId} />
    </>
  );
}
