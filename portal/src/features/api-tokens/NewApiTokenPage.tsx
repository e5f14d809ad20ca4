import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import {
  useCreateApiTokenMutation,
  type CreatedApiToken,
} from '../../data/api-tokens/token-create-mutation.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { useFocusOnMount } from '../../lib/useFocusOnMount.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { CopyButton } from '../links/result/CopyButton.tsx';
import { ApiTokenForm } from './ApiTokenForm.tsx';
import { ApiTokenScopeGate } from './ApiTokenScopeGate.tsx';
import { tokenFormError } from './tokenErrors.ts';
import type { ApiTokenScope } from './useApiTokenScope.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** settings/api/new and the team's api/new: create a token, then show its secret once. */
export default function NewApiTokenPage() {
  const { productName } = useConfig();
  usePageTitle('New API token', productName);
  return (
    <ApiTokenScopeGate>
      {(scope, accountId) => <NewApiToken scope={scope} accountId={accountId} />}
    </ApiTokenScopeGate>
  );
}

function NewApiToken({ scope, accountId }: { scope: ApiTokenScope; accountId: string }) {
  const create = useCreateApiTokenMutation(accountId);
  const navigate = useNavigate();

  if (create.data) {
    return <TokenSecret created={create.data} onDone={() => navigate(scope.listPath)} />;
  }
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>New API token</Title>
      <Text size="sm">
        {scope.kind === 'team'
          ? 'The token acts for the team in the REST API, within what you may do in it.'
          : 'The token acts as you in the REST API.'}{' '}
        Creating it asks for your password.
      </Text>
      <ApiTokenForm
        initial={{ name: '', abilities: ['links:read'], expiresInDays: null }}
        withExpiry
        submitLabel="Create token"
        saving={create.isPending}
        serverError={tokenFormError(create.error)}
        onCancel={() => navigate(scope.listPath)}
        onSubmit={({ name, abilities, expiresInDays }) =>
          create.mutate({
            name,
            abilities,
            expiresAt:
              expiresInDays === null
                ? null
                : new Date(Date.now() + expiresInDays * DAY_MS).toISOString(),
          })
        }
      />
    </Stack>
  );
}

/** The plain token, shown this once: the server keeps only its hash. */
function TokenSecret({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1} ref={heading} tabIndex={-1}>
        Your new API token
      </Title>
      <Alert color="blue" title="Copy it now: you won’t see it again" role="status">
        We keep only a fingerprint of “{created.name}”. If you lose it, revoke it and create
        another.
      </Alert>
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Code
            block
            aria-label="API token"
            style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1 }}
          >
            {created.token}
          </Code>
          <CopyButton value={created.token} label="Copy API token" />
        </Group>
      </Paper>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
