import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useApiCreditsQuery } from '../../data/api-tokens/credits-query.ts';
import { useRevokeApiTokenMutation } from '../../data/api-tokens/token-revoke-mutation.ts';
import { useApiTokensQuery, type ApiTokenRow } from '../../data/api-tokens/tokens-query.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { abilityLabel } from './abilities.ts';
import { ApiTokenScopeGate } from './ApiTokenScopeGate.tsx';
import { creditsLeft, formatDateTime } from './formatting.ts';
import type { ApiTokenScope } from './useApiTokenScope.ts';
import { ConfirmRemovalModal } from '../../components/ConfirmRemovalModal.tsx';

/** settings/api and organization/{org}/team/{team}/api: the account's tokens and credits. */
export default function ApiTokensPage() {
  const { productName } = useConfig();
  usePageTitle('API tokens', productName);
  return (
    <ApiTokenScopeGate>
      {(scope, accountId) => <ApiTokenList scope={scope} accountId={accountId} />}
    </ApiTokenScopeGate>
  );
}

function Credits({ accountId }: { accountId: string }) {
  const credits = useApiCreditsQuery(accountId);
  return (
    <Text size="sm">
      API credits this period:{' '}
      {credits.isPending ? (
        <Loader size="xs" aria-label="Loading API credits" />
      ) : credits.isError ? (
        'could not be loaded'
      ) : (
        <strong>{creditsLeft(credits.data)}</strong>
      )}
    </Text>
  );
}

/** `now`: when the list was read, so a render stays pure and agrees with the list. */
function Expiry({ token, now }: { token: ApiTokenRow; now: number }) {
  if (!token.expires_at) return <>Never</>;
  const expired = new Date(token.expires_at).getTime() <= now;
  return (
    <>
      <time dateTime={token.expires_at}>{formatDateTime(token.expires_at)}</time>
      {expired && (
        <Badge color="red" variant="light" ml={6}>
          Expired
        </Badge>
      )}
    </>
  );
}

function TokenTable({
  tokens,
  readAt,
  scope,
  onRevoke,
}: {
  tokens: ApiTokenRow[];
  readAt: number;
  scope: ApiTokenScope;
  onRevoke: (token: ApiTokenRow) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped withTableBorder aria-label="API tokens">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Token</Table.Th>
            <Table.Th scope="col">Abilities</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            <Table.Th scope="col">Expires</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Th scope="row" fw={600}>
                {token.name}
              </Table.Th>
              <Table.Td>
                <Code>{token.token_prefix}…</Code>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {token.abilities.map((ability) => (
                    <Badge key={ability} variant="outline" tt="none">
                      {abilityLabel(ability)}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <time dateTime={token.created_at}>{formatDateTime(token.created_at)}</time>
              </Table.Td>
              <Table.Td>
                {token.last_used_at ? (
                  <time dateTime={token.last_used_at}>{formatDateTime(token.last_used_at)}</time>
                ) : (
                  'Never'
                )}
              </Table.Td>
              <Table.Td>
                <Expiry token={token} now={readAt} />
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    component={Link}
                    to={scope.editPath(token.id)}
                    size="xs"
                    variant="default"
                    aria-label={`Edit ${token.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    onClick={() => onRevoke(token)}
                    aria-label={`Revoke ${token.name}`}
                  >
                    Revoke
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ApiTokenList({ scope, accountId }: { scope: ApiTokenScope; accountId: string }) {
  const tokens = useApiTokensQuery(accountId);
  const revoke = useRevokeApiTokenMutation(accountId);
  const notify = useNotify();
  const [revoking, setRevoking] = useState<ApiTokenRow | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const close = () => {
    setRevoking(null);
    revoke.reset();
  };
  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        notify({
          message: `API token “${revoking.name}” revoked.`,
          tone: 'success',
          durationMs: NOTICE_DURATION_MS.default,
        });
        setRevoking(null);
        // The row and its button are gone: focus goes back to the top of the page.
        requestAnimationFrame(() => heading.current?.focus());
      },
    });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} ref={heading} tabIndex={-1}>
            {scope.heading}
          </Title>
          <Text size="sm">
            Tokens let your programs use the{' '}
            <Anchor component={Link} to={href('dev')}>
              REST API
            </Anchor>{' '}
            as {scope.kind === 'team' ? 'this team' : 'you'}. Send one as{' '}
            <Code>Authorization: Bearer &lt;token&gt;</Code>.
          </Text>
          <Credits accountId={accountId} />
        </Stack>
        <Button component={Link} to={scope.newPath}>
          New API token
        </Button>
      </Group>

      {tokens.isPending ? (
        <Loader size="sm" aria-label="Loading API tokens" />
      ) : tokens.isError ? (
        <Alert color="red" title="The API tokens could not be loaded" role="alert">
          <Button variant="light" size="xs" mt="xs" onClick={() => void tokens.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : tokens.data.length === 0 ? (
        <Text c="dimmed">No API tokens yet. Create one to use the REST API.</Text>
      ) : (
        <TokenTable
          tokens={tokens.data}
          readAt={tokens.dataUpdatedAt}
          scope={scope}
          onRevoke={setRevoking}
        />
      )}

      <ConfirmRemovalModal
        opened={revoking !== null}
        title="Revoke API token"
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        error={
          !revoke.isError
            ? null
            : revoke.error instanceof Error && revoke.error.message === 'api_token_not_found'
              ? 'API token not found.'
              : 'The token could not be revoked. Please try again.'
        }
        onCancel={close}
        onConfirm={confirmRevoke}
      >
        Revoke <strong>{revoking?.name}</strong> ({revoking?.token_prefix}…)? Programs using it are
        refused from their next call. This cannot be undone.
      </ConfirmRemovalModal>
    </Stack>
  );
}
