import { Card, CardContent, Typography } from '@mui/material';
import { Title, useGetIdentity } from 'react-admin';

/** The kiosk's landing page; staff tools arrive resource by resource. */
export function Dashboard() {
  const { identity, isPending } = useGetIdentity();
  return (
    <Card component="main" sx={{ mt: 2 }}>
      <Title title="Dashboard" />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          Shortlane kiosk
        </Typography>
        <Typography>
          {isPending ? 'Loading…' : `Signed in as ${identity?.fullName ?? 'an unknown user'}`}
        </Typography>
      </CardContent>
    </Card>
  );
}
