import { Alert, AlertTitle, Container, Typography } from '@mui/material';

/** What a developer sees when the kiosk was started without its Supabase settings. */
export function ConfigErrorScreen({ problems }: { problems: string[] }) {
  return (
    <Container maxWidth="sm" component="main" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        The Shortlane kiosk cannot start
      </Typography>
      <Alert severity="error" role="alert">
        <AlertTitle>Configuration is incomplete</AlertTitle>
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </Alert>
      <Typography sx={{ mt: 2 }}>
        Set them in the environment or in a <code>.env</code> file beside{' '}
        <code>vite.config.ts</code>; <code>npm start</code> sets them for the local stack.
      </Typography>
    </Container>
  );
}
