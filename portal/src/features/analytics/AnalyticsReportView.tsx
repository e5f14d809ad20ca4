import { Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { AnalyticsReport, BreakdownDimension } from '../../data/link-analytics-query.ts';
import { ClicksOverTime } from './ClicksOverTime.tsx';
import { BreakdownTable } from './BreakdownTable.tsx';
import { periodDescription } from './period.ts';
import { formatCount, routeItems, seriesPoints } from './series.ts';

const DIMENSIONS: readonly Exclude<BreakdownDimension, 'routes'>[] = [
  'countries',
  'referrers',
  'devices',
  'browsers',
  'oses',
];

function Figure({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h6" c="gray.7" fw="normal">
        {label}
      </Title>
      <Text fz={28} fw={700} lh={1.2}>
        {formatCount(value)}
      </Text>
      {hint && (
        <Text size="xs" c="gray.7">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** Nobody clicked in the period: say so instead of drawing empty charts. */
export function NoClicks({
  period,
  subject = 'this link',
}: {
  period: AnalyticsReport['period'];
  subject?: string;
}) {
  return (
    <Paper withBorder p="xl" radius="md" ta="center">
      <ThemeIcon variant="light" size="xl" radius="xl" mx="auto" aria-hidden="true">
        0
      </ThemeIcon>
      <Title order={2} size="h4" mt="sm">
        No clicks yet
      </Title>
      <Text size="sm" c="gray.7" mt={4}>
        Nobody has opened {subject} in {periodDescription(period)}. Share it, or pick a longer
        period.
      </Text>
    </Paper>
  );
}

/** A report: the totals, clicks over time, and where, on what and from where people came. */
export function AnalyticsReportView({ report }: { report: AnalyticsReport }) {
  if (report.clicks === 0 && report.bot_clicks === 0) return <NoClicks period={report.period} />;
  const byRoute = routeItems(report.routes);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <Figure label="Clicks" value={report.clicks} hint={periodDescription(report.period)} />
        <Figure label="QR code scans" value={report.qr_clicks} />
        <Figure label="Bot visits (not counted)" value={report.bot_clicks} />
      </SimpleGrid>
      <Paper withBorder p="md" radius="md">
        <ClicksOverTime points={seriesPoints(report)} />
      </Paper>
      <div>
        <Title order={2} size="h4" mb="sm">
          Where the clicks came from
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {DIMENSIONS.map((dimension) => (
            <BreakdownTable key={dimension} dimension={dimension} items={report[dimension]} />
          ))}
          {byRoute.length > 0 && <BreakdownTable dimension="routes" items={byRoute} />}
        </SimpleGrid>
      </div>
    </Stack>
  );
}
