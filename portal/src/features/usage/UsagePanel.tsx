import { Alert, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { type OptionUsage, useAccountUsageQuery } from '../../data/account-usage-query.ts';
import { ApiError } from '../../data/unwrap.ts';
import { OverageSection } from './OverageSection.tsx';
import { compareOptions, usageColor, usageLabel } from './usageLabels.ts';

const number = new Intl.NumberFormat('en');
const day = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

/** Used over limit in percent; a zero limit counts as fully used. */
function percentOf(used: number, limit: number): number {
  return limit <= 0 ? 100 : (used / limit) * 100;
}

function UsageRow({ option, usage }: { option: string; usage: OptionUsage }) {
  const label = usageLabel(option);
  const { used, limit } = usage;
  if (used == null) {
    // An allowance (per link, a price): nothing to fill, only what the plan gives.
    return (
      <Group justify="space-between" wrap="nowrap">
        <Text>{label}</Text>
        <Text c="dimmed">{limit == null ? 'Unlimited' : `${number.format(limit)} allowed`}</Text>
      </Group>
    );
  }
  if (limit == null) {
    return (
      <Group justify="space-between" wrap="nowrap">
        <Text>{label}</Text>
        <Text>
          {number.format(used)} used · <Badge variant="light">Unlimited</Badge>
        </Text>
      </Group>
    );
  }
  const percent = percentOf(used, limit);
  const shown = Math.round(percent);
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text>{label}</Text>
        <Text>
          {number.format(used)} / {number.format(limit)} ({shown}%)
          {usage.overage && ' · overage on'}
          {(usage.over ?? 0) > 0 && ` · ${number.format(usage.over ?? 0)} over`}
        </Text>
      </Group>
      <Progress
        value={Math.min(100, percent)}
        color={usageColor(percent)}
        aria-label={`${label}: ${number.format(used)} of ${number.format(limit)} used (${shown}%)`}
      />
    </Stack>
  );
}

/**
 * The usage of one account (the user's, a team's, an organization's): each count option of its
 * plan as a bar, and when the monthly counters reset.
 */
export function UsagePanel({
  accountId,
  title = 'This period',
}: {
  accountId: string | null | undefined;
  title?: string;
}) {
  const usage = useAccountUsageQuery(accountId);
  if (usage.isPending) return <PageLoader />;
  if (usage.isError) {
    // public.account_usage answers 403 to whoever may not manage the account's plan.
    if (usage.error instanceof ApiError && usage.error.status === 403) {
      return (
        <Alert color="gray" title="Usage is for the account's billing managers">
          Ask the owner or an admin of this account for its usage.
        </Alert>
      );
    }
    return (
      <Alert color="red" title="The usage could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void usage.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const options = Object.keys(usage.data.limits).sort(compareOptions);
  return (
    <Stack gap="lg">
      <SettingsSection title={title}>
        <Text c="dimmed" mb="md">
          Monthly figures reset on {day.format(new Date(usage.data.periodEndsAt))}.
        </Text>
        {options.length === 0 ? (
          <Text>Your plan sets no limits to show.</Text>
        ) : (
          <Stack gap="md" aria-label="Usage by limit">
            {options.map((option) => (
              <UsageRow key={option} option={option} usage={usage.data.limits[option]!} />
            ))}
          </Stack>
        )}
      </SettingsSection>
      {accountId && <OverageSection accountId={accountId} usage={usage.data} />}
    </Stack>
  );
}
