import { createApiHandler } from './app.ts';
import { apiDependenciesFromEnv } from './config.ts';

Deno.serve(createApiHandler(apiDependenciesFromEnv()));
