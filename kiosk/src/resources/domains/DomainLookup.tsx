import { Alert, Container } from '@mui/material';
import { Loading, Title, useGetList } from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';

/** The spec's domain/{domain} address: finds the domain and shows it. */
export function DomainLookup() {
  const { domain = '' } = useParams();
  const { data, isPending, error } = useGetList('domains', {
    filter: { domain: domain.toLowerCase() },
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'domain', order: 'ASC' },
  });
  if (isPending) return <Loading />;
  const found = data?.[0];
  if (found) return <Navigate to={`/domains/${found.id}/show`} replace />;
  return (
    <Container sx={{ py: 3 }}>
      <Title title="Domain" />
      <Alert severity={error ? 'error' : 'info'}>
        {error ? 'The domain could not be looked up.' : `Domain not found: ${domain}`}
      </Alert>
    </Container>
  );
}
