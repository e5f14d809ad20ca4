import SwaggerUI from 'swagger-ui-react';
// Every rule of this sheet sits under `.swagger-ui` except `html.dark-mode`, a class the portal
// never sets (Mantine marks its scheme with data-mantine-color-scheme): nothing leaks out.
import 'swagger-ui-react/swagger-ui.css';
import './apiViewer.css';

/*
 * Swagger UI, chosen by weight among well-kept viewers with "try it" (gzip, each bundled alone
 * for the browser, minified, React left out as the portal has it; 2026-11):
 *   swagger-ui-react 5.35            427 kB JS + 27 kB CSS, on the portal's React
 *   swagger-ui-dist 5.35 (bundle)    458 kB JS + 27 kB CSS, with its own React
 *   @scalar/api-reference-react 0.9  1,517 kB JS + 44 kB CSS
 *   Redoc                            no "try it"
 * In the portal's production build (bench/bundle.ts) the DevPage chunk goes from 7.6 kB to
 * 409 kB JS + 26 kB CSS, loaded only on /app/dev (its route is lazy); the entry chunk is
 * unchanged (80.8 kB).
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
