import {
  Button,
  CopyButton,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { useId } from 'react';
import type { LinkAnalyticsAccess } from '../../data/link-analytics-query.ts';
import { useShareAnalyticsMutation } from '../../data/link-analytics-query.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import { href } from '../../routes/paths.ts';

/** The public address of shared analytics: this page, keyed by the share token. */
export function publicAnalyticsUrl(token: string, origin = window.location.origin): string {
  return new URL(href('analytics', { hash: token }), origin).toString();
}

/**
 * Public sharing of a link's analytics, for those who may share it (the plan allows public
 * analytics, the reader manages the link). Readers who may not share still see the public
 * address once someone shared it.
 */
export function SharePanel({ access }: { access: LinkAnalyticsAccess }) {
  const notify = useNotify();
  const share = useShareAnalyticsMutation(access.alias_id);
  const titleId = useId();
  const token = access.share_token;
  if (!access.can_share && token == null) return null;
  const url = token ? publicAnalyticsUrl(token) : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={2} size="h5" id={titleId}>
          Public analytics
        </Title>
        {access.can_share && (
          <Switch
            label="Anyone with the link can see these analytics"
            checked={token != null}
            disabled={share.isPending}
            onChange={(event) =>
              share.mutate(event.currentTarget.checked, {
                onSuccess: (next) =>
                  notify({
                    message: next
                      ? 'The analytics are now public.'
                      : 'The analytics are private again.',
                    durationMs: NOTICE_DURATION_MS.default,
                    tone: 'success',
                  }),
              })
            }
          />
        )}
        {url ? (
          <Group gap="xs" align="end" wrap="nowrap">
            <TextInput
              label="Public address"
              value={url}
              readOnly
              style={{ flex: 1 }}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : (
          <Text size="sm" c="gray.7">
            Only people who can read this link see its analytics.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
