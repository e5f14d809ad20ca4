import { Anchor, Code, Container, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useServices } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { apiDocument, documentFor, serverUrlOf } from './apiDocument.ts';
import { ApiViewer } from './ApiViewer.tsx';
import { ErrorCodes } from './ErrorCodes.tsx';

/** dev: the public API's reference, read from its OpenAPI description (app-shell 2). */
export default function DevPage() {
  usePageTitle('API documentation');
  const { env } = useServices();
  const serverUrl = serverUrlOf(env.supabaseUrl);
  const spec = useMemo(() => documentFor(env.supabaseUrl), [env.supabaseUrl]);
  return (
    <Container size="lg" py="xl" component="article">
      <Stack gap="xl">
        <Stack gap="xs">
          <Title order={1}>{apiDocument.info.title}</Title>
          <Text size="sm">
            Version {apiDocument.info.version} · OpenAPI {apiDocument.openapi} ·{' '}
            <Anchor href={`${serverUrl}/openapi.json`} underline="always">
              openapi.json
            </Anchor>
          </Text>
          <Text>{apiDocument.info.description}</Text>
          <Text size="sm">
            To try a call, create a token in{' '}
            <Anchor component={Link} to={href('settings.api')} underline="always">
              Settings → API
            </Anchor>
            , paste it under Authorize, then use Try it out. Requests go to <Code>{serverUrl}</Code>{' '}
            and spend your API credits; the token stays in this page only.
          </Text>
        </Stack>
        <ApiViewer spec={spec} />
        <ErrorCodes codes={apiDocument['x-error-codes'] ?? []} />
      </Stack>
    </Container>
  );
}
