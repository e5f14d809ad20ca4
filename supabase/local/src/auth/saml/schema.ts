import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const SSO_SCHEMA = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../sql/25_auth_sso.sql',
);

/**
 * GoTrue migrates its own schema when it starts; with SAML enabled this Auth does the same for
 * the SSO tables (idempotent), so a database bootstrapped before they existed gains them.
 */
export async function ensureSsoSchema(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ ready: boolean }>(
    `select to_regclass('auth.saml_relay_states') is not null as ready`,
  );
  if (rows[0]?.ready) return;
  await pool.query(await fs.readFile(SSO_SCHEMA, 'utf8'));
}
