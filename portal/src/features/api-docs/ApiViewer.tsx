import SwaggerUI from 'swagger-ui-react';
// Every rule of this sheet sits under `.swagger-ui` except `html.dark-mode`, a class the portal
// never sets (Mantine marks its scheme with data-mantine-color-scheme): nothing leaks out.
import 'swagger-ui-react/swagger-ui.css';
import './apiViewer.css';

/*
 * Swagger UI, chosen by weight among viewers with "try it" (gzip, production build, 2026-11):
 * swagger-ui-react 5.35 adds ≈427 kB JS + 27 kB CSS to this page's chunks and uses the portal's
 * React; swagger-ui-dist's bundle ≈458 kB (its own React); @scalar/api-reference-react 0.9
 * ≈1,517 kB JS + 44 kB CSS. Redoc has no "try it". Only /app/dev imports this module (its route
 * is lazy), so none of it is in the entry chunk.
 */

/**
 * The page's own header says what the document's info block and server picker would: the
 * title, and where requests go (one server, so "try it" takes it without asking; the picker
 * is also a select without an accessible name).
 */
const withoutInfoAndServers = () => ({
  components: { InfoContainer: () => null, ServersContainer: () => null },
});

/**
 * The reference and its "try it", from an OpenAPI document. The bearer token starts empty and
 * lives in this page only (no persisted authorization): readers paste their own.
 */
export function ApiViewer({ spec }: { spec: object }) {
  return <SwaggerUI spec={spec} plugins={[withoutInfoAndServers]} persistAuthorization={false} />;
}
