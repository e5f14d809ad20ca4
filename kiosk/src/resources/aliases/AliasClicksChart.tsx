import { Box, Typography } from '@mui/material';
import { useMemo } from 'react';
import { Loading, useGetList, useRecordContext } from 'react-admin';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { dailyClicks, windowStart, type HourlyClicks } from './dailyClicks.ts';

const DAYS = 30;

/** A link's clicks per day over the last 30 days, from its hourly rollups. */
export function AliasClicksChart() {
  const record = useRecordContext();
  // Fixed for the page's life, so the query key does not change on every render.
  const now = useMemo(() => new Date(), []);
  const { data, isPending, error } = useGetList<HourlyClicks & { id: string }>(
    'alias_clicks',
    {
      filter: { alias_id: record?.id, 'hour@gte': windowStart(DAYS, now).toISOString() },
      sort: { field: 'hour', order: 'ASC' },
      pagination: { page: 1, perPage: DAYS * 24 },
    },
    { enabled: Boolean(record?.id) },
  );
  const series = useMemo(() => dailyClicks(data ?? [], DAYS, now), [data, now]);
  if (isPending) return <Loading />;
  if (error) return <Typography color="error">Clicks could not be loaded.</Typography>;
  const total = series.reduce((sum, day) => sum + day.clicks, 0);
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="subtitle2" component="h2" gutterBottom>
        Clicks in the last {DAYS} days: {total}
      </Typography>
      <Box sx={{ width: '100%', height: 240 }}>
        <ResponsiveContainer>
          <BarChart data={series}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Bar
              isAnimationActive={false}
              dataKey="humans"
              name="People"
              stackId="clicks"
              fill="#1976d2"
            />
            <Bar
              isAnimationActive={false}
              dataKey={(day: { clicks: number; humans: number }) => day.clicks - day.humans}
              name="Bots"
              stackId="clicks"
              fill="#9e9e9e"
            />
          </BarChart>
        </ResponsiveContainer>
      </Box>
    </Box>
  );
}
