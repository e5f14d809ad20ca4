import { Alert, Anchor, Code, Loader, Stack, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useUpdateApiTokenMutation } from '../../data/api-tokens/token-update-mutation.ts';
import { useApiTokensQuery } from '../../data/api-tokens/tokens-query.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { ApiTokenForm } from './ApiTokenForm.tsx';
import { ApiTokenScopeGate } from './ApiTokenScopeGate.tsx';
import { tokenFormError } from './tokenErrors.ts';
import type { ApiTokenScope } from './useApiTokenScope.ts';

/** settings/api/edit/{tokenId} and the team's: rename a token and change its abilities. */
export default function EditApiTokenPage() {
  const { productName } = useConfig();
  usePageTitle('Edit API token', productName);
  return (
    <ApiTokenScopeGate>
      {(scope, accountId) => <EditApiToken scope={scope} accountId={accountId} />}
    </ApiTokenScopeGate>
  );
}

function EditApiToken({ scope, accountId }: { scope: ApiTokenScope; accountId: string }) {
  const { tokenId = '' } = useParams();
  const tokens = useApiTokensQuery(accountId);
  const update = useUpdateApiTokenMutation(accountId);
  const navigate = useNavigate();
  const notify = useNotify();
  const back = (
    <Anchor component={Link} to={scope.listPath}>
      Back to the API tokens
    </Anchor>
  );

  if (tokens.isPending) return <Loader size="sm" aria-label="Loading the API token" />;
  if (tokens.isError) {
    return (
      <Alert color="red" title="The API token could not be loaded" role="alert">
        {back}
      </Alert>
    );
  }
  const token = tokens.data.find((candidate) => candidate.id === tokenId);
  if (!token) {
    return (
      <Alert color="red" title="API token not found." role="alert">
        It may have been revoked. {back}
      </Alert>
    );
  }
  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Edit API token</Title>
      <Text size="sm">
        <Code>{token.token_prefix}…</Code> keeps its secret; only its name and abilities change.
      </Text>
      <ApiTokenForm
        initial={{ name: token.name, abilities: token.abilities, expiresInDays: null }}
        withExpiry={false}
        submitLabel="Save token"
        saving={update.isPending}
        serverError={tokenFormError(update.error)}
        onCancel={() => navigate(scope.listPath)}
        onSubmit={({ name, abilities }) =>
          update.mutate(
            { id: token.id, name, abilities },
            {
              onSuccess: () => {
                notify({
                  message: 'API token saved.',
                  tone: 'success',
                  durationMs: NOTICE_DURATION_MS.default,
                });
                navigate(scope.listPath);
              },
            },
          )
        }
      />
    </Stack>
  );
}
