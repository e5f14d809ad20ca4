import { Paper, Progress, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { BreakdownDimension, BreakdownItem } from '../../data/link-analytics-query.ts';
import { breakdownRows, DIMENSION_NAMES, formatCount } from './series.ts';

/**
 * One breakdown (countries, devices…) as a bar chart that is also a table: each row's bar shows
 * its share at a glance, while the cells carry the figures screen readers and copy-paste need.
 */
export function BreakdownTable({
  dimension,
  items,
}: {
  dimension: BreakdownDimension;
  items: readonly BreakdownItem[];
}) {
  const titleId = useId();
  const { title, column } = DIMENSION_NAMES[dimension];
  const rows = breakdownRows(dimension, items);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="gray.7">
          No clicks to break down.
        </Text>
      ) : (
        <Table verticalSpacing={4} aria-labelledby={titleId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{column}</Table.Th>
              <Table.Th scope="col" ta="right">
                Clicks
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Share
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw="normal" w="55%">
                  <Text size="sm" truncate="end" title={row.label}>
                    {row.label}
                  </Text>
                  <Progress value={row.percent} size="sm" mt={2} aria-hidden="true" />
                </Table.Th>
                <Table.Td ta="right">{formatCount(row.clicks)}</Table.Td>
                <Table.Td ta="right">{row.percent}%</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
