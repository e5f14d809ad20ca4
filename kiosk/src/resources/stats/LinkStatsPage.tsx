import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Loading, Title } from 'react-admin';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useKioskDataProvider } from '../../components/useKioskDataProvider.ts';
import { statusSlices, type LinkTotals } from './series.ts';
import { StatCards } from './StatCards.tsx';

const SLICE_COLORS = ['#1976d2', '#2e7d32', '#ed6c02', '#9c27b0', '#d32f2f', '#757575'];

/** stats/tinyurl: the product's totals, links per status and the busiest domains. */
export function LinkStatsPage() {
  const dataProvider = useKioskDataProvider();
  const totals = useQuery({
    queryKey: ['kiosk_link_totals'],
    queryFn: () => dataProvider.rpc<LinkTotals>('kiosk_link_totals', { p_top: 10 }),
  });
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Link stats" />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          Link stats
        </Typography>
        {totals.isPending ? (
          <Loading />
        ) : totals.error ? (
          <Alert severity="error">{totals.error.message}</Alert>
        ) : (
          <>
            <StatCards
              figures={[
                { label: 'Users', value: totals.data.users },
                { label: 'Links', value: totals.data.links },
                { label: 'Active links', value: totals.data.active_links },
                { label: 'Destinations', value: totals.data.long_urls },
                { label: 'Clicks', value: totals.data.clicks },
                { label: 'Paid subscriptions', value: totals.data.paid_subscriptions },
                { label: 'Banned domains', value: totals.data.banned_domains },
              ]}
            />
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <Box sx={{ flex: 2, height: 320 }} aria-label="Links per domain">
                <Typography variant="subtitle1" component="h2">
                  Links per domain
                </Typography>
                <ResponsiveContainer>
                  <BarChart data={totals.data.by_domain}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="domain" />
                    <YAxis allowDecimals={false} />
                    <Tooltip />
                    <Bar isAnimationActive={false} dataKey="links" name="Links" fill="#1976d2" />
                  </BarChart>
                </ResponsiveContainer>
              </Box>
              <Box sx={{ flex: 1, height: 320 }} aria-label="Links per status">
                <Typography variant="subtitle1" component="h2">
                  Links per status
                </Typography>
                <ResponsiveContainer>
                  <PieChart>
                    <Pie
                      isAnimationActive={false}
                      data={statusSlices(totals.data.by_status)}
                      dataKey="links"
                      nameKey="status"
                    >
                      {statusSlices(totals.data.by_status).map((slice, index) => (
                        <Cell key={slice.status} fill={SLICE_COLORS[index % SLICE_COLORS.length]} />
                      ))}
                    </Pie>
                    <Tooltip />
                    <Legend />
                  </PieChart>
                </ResponsiveContainer>
              </Box>
            </Stack>
          </>
        )}
      </CardContent>
    </Card>
  );
}
