import { Container } from '@mantine/core';
// The document is bundled into this page's own chunk: the route is lazy (routeTable.tsx), so
// nothing of it loads before someone opens /app/dev.
import document from '@shortlane/shared/api/openapi.json';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { ApiReference } from './ApiReference.tsx';
import type { OpenApiDocument } from './openApiView.ts';

/** dev: the public API's reference, read from its OpenAPI description (app-shell 2). */
export default function DevPage() {
  usePageTitle('API documentation');
  return (
    <Container size="lg" py="xl" component="article">
      <ApiReference document={document as OpenApiDocument} />
    </Container>
  );
}
