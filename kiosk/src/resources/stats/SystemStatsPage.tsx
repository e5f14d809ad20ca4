import {
  Alert,
  Box,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading, Title, useGetList } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';
import { PERIODS, toSeries, totalsOf, type SystemStatsRow } from './series.ts';
import { StatCards } from './StatCards.tsx';

const ALL_DOMAINS = '';

/** stats/system/{domain?}: links, clicks, sign-ups and paid subscriptions per day. */
export function SystemStatsPage() {
  const { domain = ALL_DOMAINS } = useParams();
  const navigate = useNavigate();
  const [days, setDays] = useState<number>(30);
  const dataProvider = useKioskDataProvider();
  const domains = useGetList('domains', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'domain', order: 'ASC' },
    filter: { is_deleted: false },
  });
  const stats = useQuery({
    queryKey: ['kiosk_system_stats', days, domain],
    queryFn: () =>
      dataProvider.rpc<SystemStatsRow[]>('kiosk_system_stats', {
        p_days: days,
        p_domain: domain || null,
      }),
  });
  const series = toSeries(stats.data ?? []);
  const totals = totalsOf(series);

  return (
    <Card sx={{ mt: 2 }}>
      <Title title="System stats" />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          System stats{domain ? ` for ${domain}` : ''}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
          <FormControl size="small" sx={{ minWidth: 140 }}>
            <InputLabel id="stats-period">Period</InputLabel>
            <Select
              labelId="stats-period"
              label="Period"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            >
              {PERIODS.map((period) => (
                <MenuItem key={period} value={period}>
                  Last {period} days
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <FormControl size="small" sx={{ minWidth: 240 }}>
            <InputLabel id="stats-domain">Domain</InputLabel>
            <Select
              labelId="stats-domain"
              label="Domain"
              value={domain}
              onChange={(event) =>
                navigate(
                  event.target.value ? `/stats/system/${event.target.value}` : '/stats/system',
                )
              }
            >
              <MenuItem value={ALL_DOMAINS}>All domains</MenuItem>
              {(domains.data ?? []).map((record) => (
                <MenuItem key={record.id} value={record.domain}>
                  {record.domain}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </Stack>
        {stats.isPending ? (
          <Loading />
        ) : stats.error ? (
          <Alert severity="error">{stats.error.message}</Alert>
        ) : (
          <>
            <StatCards
              figures={[
                { label: 'Links created', value: totals.links },
                { label: 'Clicks', value: totals.clicks },
                { label: 'Sign-ups', value: totals.users },
                { label: 'Paid subscriptions', value: totals.subscriptions },
              ]}
            />
            <Box sx={{ width: '100%', height: 320 }} aria-label="Links and clicks per day">
              <ResponsiveContainer>
                <LineChart data={series}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="day" />
                  <YAxis yAxisId="clicks" allowDecimals={false} />
                  <YAxis yAxisId="counts" orientation="right" allowDecimals={false} />
                  <Tooltip />
                  <Legend />
                  <Line
                    isAnimationActive={false}
                    yAxisId="clicks"
                    dataKey="clicks"
                    name="Clicks"
                    stroke="#1976d2"
                    dot={false}
                  />
                  <Line
                    isAnimationActive={false}
                    yAxisId="counts"
                    dataKey="links"
                    name="Links"
                    stroke="#2e7d32"
                    dot={false}
                  />
                  <Line
                    isAnimationActive={false}
                    yAxisId="counts"
                    dataKey="users"
                    name="Sign-ups"
                    stroke="#ed6c02"
                    dot={false}
                  />
                  <Line
                    isAnimationActive={false}
                    yAxisId="counts"
                    dataKey="subscriptions"
                    name="Paid subscriptions"
                    stroke="#9c27b0"
                    dot={false}
                  />
                </LineChart>
              </ResponsiveContainer>
            </Box>
            {domain && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Links and clicks are those of {domain}; sign-ups and subscriptions are system-wide.
              </Typography>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
