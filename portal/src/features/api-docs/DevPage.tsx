import { Container } from '@mantine/core';
// The document is bundled into this page's own chunk: the route is lazy (routeTable.tsx), so
// nothing of it loads before someone opens /app/dev.
import document from '@shortlane/shared/api/openapi.json';
import { useServices } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { ApiReference } from './ApiReference.tsx';
import type { OpenApiDocument } from './openApiView.ts';
import { serverUrlOf } from './tryIt.ts';

const openApi = document as OpenApiDocument;
// Straight to the network: the portal's handled fetch would take the API's 401 for an expired
// session.
const send: typeof fetch = (input, init) => fetch(input, init);

/** dev: the public API's reference, read from its OpenAPI description (app-shell 2). */
export default function DevPage() {
  usePageTitle('API documentation');
  const { env } = useServices();
  return (
    <Container size="lg" py="xl" component="article">
      <ApiReference
        document={openApi}
        tryIt={{ serverUrl: serverUrlOf(openApi, env.supabaseUrl), send }}
      />
    </Container>
  );
}
