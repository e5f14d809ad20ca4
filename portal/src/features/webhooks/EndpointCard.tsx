import { Badge, Button, Code, CopyButton, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useWebhookSecretQuery } from '../../data/webhooks/endpoint-secret-query.ts';
import type { WebhookEndpointRow } from '../../data/webhooks/endpoints-query.ts';
import { useRotateWebhookSecretMutation } from '../../data/webhooks/secret-rotate-mutation.ts';

/** One endpoint: where, what, its state and secret, and what can be done with it. */
export function EndpointCard({
  endpoint,
  onEdit,
  onDelete,
  onToggle,
  onTest,
  testing,
}: {
  endpoint: WebhookEndpointRow;
  onEdit: () => void;
  onDelete: () => void;
  onToggle: (enabled: boolean) => void;
  onTest: () => void;
  testing: boolean;
}) {
  const [secretShown, setSecretShown] = useState(false);
  const secret = useWebhookSecretQuery(endpoint.id, secretShown);
  const rotate = useRotateWebhookSecretMutation();
  const label = endpoint.description ?? endpoint.url;

  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={`Endpoint ${label}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {endpoint.url}
          </Text>
          {endpoint.enabled ? (
            <Badge color="green">Enabled</Badge>
          ) : (
            <Badge color="red">
              {endpoint.disabled_reason === 'failing' ? 'Disabled after failures' : 'Disabled'}
            </Badge>
          )}
        </Group>
        {endpoint.description && <Text size="sm">{endpoint.description}</Text>}
        <Group gap={4} aria-label="Events">
          {endpoint.events.map((name) => (
            <Badge key={name} variant="outline" tt="none">
              {name}
            </Badge>
          ))}
        </Group>
        <Group gap="xs">
          <Text size="sm">Signing secret:</Text>
          {secretShown && secret.data ? (
            <>
              <Code>{secret.data}</Code>
              <CopyButton value={secret.data}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="subtle" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </>
          ) : (
            <Button
              size="compact-xs"
              variant="subtle"
              loading={secretShown && secret.isPending}
              onClick={() => setSecretShown(true)}
            >
              Reveal secret
            </Button>
          )}
          <Button
            size="compact-xs"
            variant="subtle"
            color="orange"
            loading={rotate.isPending}
            onClick={() => {
              rotate.mutate(endpoint.id);
              setSecretShown(true);
            }}
          >
            Rotate secret
          </Button>
        </Group>
        <Group justify="space-between">
          <Switch
            label="Enabled"
            checked={endpoint.enabled}
            onChange={(event) => onToggle(event.currentTarget.checked)}
          />
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              onClick={onTest}
              loading={testing}
              disabled={!endpoint.enabled}
            >
              Send test event
            </Button>
            <Button size="xs" variant="default" onClick={onEdit}>
              Edit
            </Button>
            <Button size="xs" color="red" variant="light" onClick={onDelete}>
              Delete
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
