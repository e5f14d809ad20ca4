import { Alert, Anchor, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDeferredValue, useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { paths } from '../../routes/paths.ts';
import { ClicksOverTime } from './ClicksOverTime.tsx';
import { ANALYTICS_PLAN_MESSAGES, analyticsErrorMessage } from './errors.ts';
import { periodDescription } from './period.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { formatCount, seriesPoints } from './series.ts';
import { useAccountClicks } from './useAccountClicks.ts';

function PlanNote({ children }: { children: ReactNode }) {
  return (
    <Text size="sm">
      {children}{' '}
      <Anchor component={Link} to={paths['signup.pricing']}>
        See the plans
      </Anchor>
    </Text>
  );
}

/**
 * The body's height with clicks (the total, the chart and its summary: 420 px on a phone,
 * measured): the loading state takes it, so the links under the panel stay where they are when
 * the clicks arrive.
 */
export const CLICKS_BODY_HEIGHT = 420;

/** The part of the body under the total (the chart and its summary, measured on a phone). */
const CLICKS_DETAIL_HEIGHT = 360;

function Loading() {
  return <LoadingFrame label="Loading the clicks…" minHeight={CLICKS_BODY_HEIGHT} />;
}

/**
 * The dashboard's analytics: every link of an account, clicks over the stats period (the same
 * remembered period as a link's analytics page). A plan without analytics sees why, with no
 * refused request behind it (useAccountClicks).
 */
export function AccountAnalyticsPanel({ accountId }: { accountId: string }) {
  const { chosen, setChosen, access, allowed, period, report } = useAccountClicks(accountId);
  const titleId = useId();
  // The total is the page's largest paint: it shows as soon as the answer is in, with nothing
  // else of the panel. The chart's part renders after it, in a transition (a query's answer
  // otherwise renders in one long task); also when the panel opens with its clicks already at
  // hand (the entry's first requests): null at first.
  const shown = useDeferredValue(report.data ?? null, null);

  let body: ReactNode;
  if (access.isPending) body = <Loading />;
  else if (access.isError || report.isError) {
    body = (
      <Alert color="red" role="alert" title="The clicks could not be loaded">
        {analyticsErrorMessage(access.error ?? report.error)}
      </Alert>
    );
  } else if (period == null) {
    body = <PlanNote>{ANALYTICS_PLAN_MESSAGES.notIncluded}</PlanNote>;
  } else if (report.isPending) body = <Loading />;
  else {
    body = (
      <Stack gap="sm">
        {period !== chosen && <PlanNote>{ANALYTICS_PLAN_MESSAGES.periodNotIncluded}</PlanNote>}
        <Text>
          <Text span fz={28} fw={700}>
            {formatCount(report.data.clicks)}
          </Text>{' '}
          clicks on all your links in {periodDescription(period)}
        </Text>
        {shown == null ? (
          <LoadingFrame label="Loading the chart…" minHeight={CLICKS_DETAIL_HEIGHT} />
        ) : shown.clicks === 0 ? (
          <Text size="sm" c="gray.7">
            No clicks yet in {periodDescription(period)}. Share a link, or pick a longer period.
          </Text>
        ) : (
          <ClicksOverTime points={seriesPoints(shown)} headingOrder={3} />
        )}
      </Stack>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      {/* At least the period picker's height: the body stays put when the picker appears. */}
      <Group justify="space-between" align="center" mb="sm" gap="sm" mih={36}>
        <Title order={2} size="h3" id={titleId}>
          Clicks
        </Title>
        {period != null && (
          <Group gap="sm">
            {report.isFetching && !report.isPending && (
              <Loader size="xs" role="status" aria-label="Updating the clicks" />
            )}
            <PeriodPicker value={period} onChange={setChosen} allowed={allowed} />
          </Group>
        )}
      </Group>
      {body}
    </Paper>
  );
}
