import { Alert, Button, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageLoader } from '../../components/PageLoader.tsx';
import type { DomainAccount } from '../../data/branded-domains/accounts-query.ts';
import { accountLabel, useDomainScope } from './useDomainScope.ts';

export interface ReadyScope {
  account: DomainAccount;
  choices: DomainAccount[];
}

/** Renders a domain page once its account is known; says why when there is none. */
export function DomainScopeGate({ children }: { children: (scope: ReadyScope) => ReactNode }) {
  const scope = useDomainScope();
  if (scope.status === 'loading') return <PageLoader />;
  if (scope.status === 'error') {
    return (
      <Alert color="red" title="Your domains could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={scope.retry}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (scope.status === 'none') {
    return (
      <Alert color="blue" title="No domains to manage here">
        <Text size="sm">
          Managing domains takes the domains permission on this account. Ask its owner.
        </Text>
      </Alert>
    );
  }
  return (
    <>
      {scope.fellBack && (
        <Alert color="yellow" title="Account not available" mb="md">
          The link names an account whose domains you cannot manage. Showing{' '}
          {accountLabel(scope.account)} instead.
        </Alert>
      )}
      {children({ account: scope.account, choices: scope.choices })}
    </>
  );
}
