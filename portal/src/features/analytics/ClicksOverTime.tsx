import { Box, SegmentedControl, Group, Table, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { ClicksChart } from './ClicksChart.tsx';
import { formatCount, peakPoint, type SeriesPoint } from './series.ts';

type View = 'chart' | 'table';

/**
 * Clicks per bucket as a chart, or the same numbers as a table for anyone who would rather read
 * them (screen readers get a summary of the chart and can switch to the table).
 */
export function ClicksOverTime({
  points,
  title = 'Clicks over time',
  headingOrder = 2,
}: {
  points: readonly SeriesPoint[];
  title?: string;
  /** The heading level within the page (3 inside a panel that has its own heading). */
  headingOrder?: 2 | 3;
}) {
  const [view, setView] = useState<View>('chart');
  const titleId = useId();
  const total = points.reduce((sum, point) => sum + point.clicks, 0);
  const peak = peakPoint(points);
  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last
      ? `${formatCount(total)} clicks from ${first.label} to ${last.label}` +
        (peak ? `; most at ${peak.label} (${formatCount(peak.clicks)}).` : '.')
      : 'No data.';

  return (
    <section aria-labelledby={titleId}>
      <Group justify="space-between" align="center" mb="sm">
        <Title order={headingOrder} size="h4" id={titleId}>
          {title}
        </Title>
        <SegmentedControl
          size="xs"
          aria-label={`Show ${title.toLowerCase()} as`}
          value={view}
          onChange={(value) => setView(value === 'table' ? 'table' : 'chart')}
          data={[
            { value: 'chart', label: 'Chart' },
            { value: 'table', label: 'Table' },
          ]}
        />
      </Group>
      {view === 'chart' ? (
        <Box role="img" aria-label={`${title}: ${summary}`} h={260}>
          <ClicksChart points={points} />
        </Box>
      ) : (
        <Table.ScrollContainer minWidth={240} mah={320}>
          <Table striped stickyHeader>
            <Table.Caption>{summary}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Time</Table.Th>
                <Table.Th scope="col" ta="right">
                  Clicks
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {points.map((point) => (
                <Table.Tr key={point.time}>
                  <Table.Th scope="row" fw="normal">
                    {point.label}
                  </Table.Th>
                  <Table.Td ta="right">{formatCount(point.clicks)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {view === 'chart' && (
        <Text size="xs" c="gray.7" mt={4}>
          {summary}
        </Text>
      )}
    </section>
  );
}
