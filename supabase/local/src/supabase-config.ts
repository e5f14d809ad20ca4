import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { REPO_ROOT } from './config.ts';

/**
 * supabase/config.toml, the one description of the project both `supabase start` and this stack
 * read. `supabaseDir` names another Supabase project folder (test fixtures).
 */
export function readSupabaseConfig(
  supabaseDir = path.join(REPO_ROOT, 'supabase'),
): Record<string, unknown> {
  return parse(fs.readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8')) as Record<
    string,
    unknown
  >;
}
