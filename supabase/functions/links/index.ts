import { loadCountryDatabase } from '../_shared/clicks/geo.ts';
import { linksDependenciesFromEnv } from './config.ts';
import { createLinksHandler } from './handler.ts';

// Guests' CCPA check locates their address; load the country database before the first one.
loadCountryDatabase().catch((error) =>
  console.error('links: GeoIP database failed to load', error),
);

Deno.serve(createLinksHandler(linksDependenciesFromEnv()));
