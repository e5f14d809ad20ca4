import { Alert, Anchor, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useAccountAnalyticsQuery } from '../../data/link-analytics-query.ts';
import { paths } from '../../routes/paths.ts';
import { ClicksOverTime } from './ClicksOverTime.tsx';
import { analyticsErrorCode, analyticsErrorMessage } from './errors.ts';
import { periodDescription, useStatsPeriod } from './period.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { formatCount, seriesPoints } from './series.ts';

/**
 * The dashboard's analytics: every link of an account, clicks over the stats period (the same
 * remembered period as a link's analytics page).
 */
export function AccountAnalyticsPanel({ accountId }: { accountId: string }) {
  const [period, setPeriod] = useStatsPeriod();
  const report = useAccountAnalyticsQuery(accountId, period);
  const titleId = useId();
  const planCode = report.isError ? analyticsErrorCode(report.error) : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="center" mb="sm" gap="sm">
        <Title order={2} size="h3" id={titleId}>
          Clicks
        </Title>
        <Group gap="sm">
          {report.isFetching && !report.isPending && (
            <Loader size="xs" role="status" aria-label="Updating the clicks" />
          )}
          <PeriodPicker value={period} onChange={setPeriod} />
        </Group>
      </Group>
      {report.isPending ? (
        <Group gap="sm" role="status" py="lg" justify="center">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading the clicks…</Text>
        </Group>
      ) : report.isError ? (
        planCode === 'analytics_not_allowed' || planCode === 'analytics_period_not_allowed' ? (
          <Text size="sm">
            {analyticsErrorMessage(report.error)}{' '}
            <Anchor component={Link} to={paths['signup.pricing']}>
              See the plans
            </Anchor>
          </Text>
        ) : (
          <Alert color="red" role="alert" title="The clicks could not be loaded">
            {analyticsErrorMessage(report.error)}
          </Alert>
        )
      ) : (
        <Stack gap="sm">
          <Text>
            <Text span fz={28} fw={700}>
              {formatCount(report.data.clicks)}
            </Text>{' '}
            clicks on all your links in {periodDescription(period)}
          </Text>
          {report.data.clicks === 0 ? (
            <Text size="sm" c="gray.7">
              No clicks yet in {periodDescription(period)}. Share a link, or pick a longer period.
            </Text>
          ) : (
            <ClicksOverTime points={seriesPoints(report.data)} headingOrder={3} />
          )}
        </Stack>
      )}
    </Paper>
  );
}
