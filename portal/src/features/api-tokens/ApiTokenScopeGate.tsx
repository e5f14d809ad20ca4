import { Alert, Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useApiTokenScope, type ApiTokenScope } from './useApiTokenScope.ts';

/** Waits for the scope's account, then renders the page for it. */
export function ApiTokenScopeGate({
  children,
}: {
  children: (scope: ApiTokenScope, accountId: string) => ReactNode;
}) {
  const state = useApiTokenScope();
  if (state.status === 'loading') return <PageLoader />;
  if (state.status === 'error') {
    return (
      <Alert color="red" title="The account could not be loaded" role="alert">
        <Button variant="light" size="xs" mt="xs" onClick={state.retry}>
          Try again
        </Button>
      </Alert>
    );
  }
  return children(state.scope, state.accountId);
}
