import { Alert, Container } from '@mui/material';
import { Loading, Title, useGetList } from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';

/** The spec's alias/{domain}/{alias} address: finds the link and shows it. */
export function AliasLookup() {
  const { domain = '', alias = '' } = useParams();
  const { data, isPending, error } = useGetList('aliases', {
    filter: { domain: domain.toLowerCase(), alias },
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'created_at', order: 'DESC' },
  });
  if (isPending) return <Loading />;
  const found = data?.[0];
  if (found) return <Navigate to={`/aliases/${found.id}/show`} replace />;
  return (
    <Container sx={{ py: 3 }}>
      <Title title="Alias" />
      <Alert severity={error ? 'error' : 'info'}>
        {error ? 'The alias could not be looked up.' : `Alias not found: ${domain}/${alias}`}
      </Alert>
    </Container>
  );
}
