import { Alert, Box, Button, Container, Typography } from '@mui/material';
import { useGetIdentity, useLogout } from 'react-admin';

/**
 * What a signed-in user who is not staff sees instead of the kiosk. The data would stay hidden
 * anyway (row-level security answers them nothing); this says so instead of an empty admin.
 */
export function AccessDenied() {
  const { identity } = useGetIdentity();
  const logout = useLogout();
  return (
    <Container maxWidth="sm" component="main" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Access denied
      </Typography>
      <Alert severity="error" role="alert">
        The kiosk is for Shortlane staff only.
        {identity?.fullName ? ` ${identity.fullName} is not a staff account.` : ''}
      </Alert>
      <Box sx={{ mt: 3 }}>
        <Button variant="contained" onClick={() => logout()}>
          Sign out
        </Button>
      </Box>
    </Container>
  );
}

/** The staff check itself failed (the database could not be asked): say so, offer a retry. */
export function StaffCheckFailed({ message }: { message: string }) {
  return (
    <Container maxWidth="sm" component="main" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        The kiosk could not check your access
      </Typography>
      <Alert severity="warning" role="alert">
        {message}
      </Alert>
      <Box sx={{ mt: 3 }}>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Try again
        </Button>
      </Box>
    </Container>
  );
}
