/**
 * The two settings every browser app needs to reach Supabase, checked once at start-up so that a
 * missing or mistyped value shows a clear screen instead of failing later on the first request.
 */

export interface SupabaseEnv {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

export type SupabaseEnvCheck = { ok: true; env: SupabaseEnv } | { ok: false; problems: string[] };

const URL_VARIABLE = 'VITE_SUPABASE_URL';
const KEY_VARIABLE = 'VITE_SUPABASE_ANON_KEY';
// A scheme and a host, nothing else required (URL is not in every runtime's type library).
const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Reads VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY from `source` (Vite's `import.meta.env`). */
export function readSupabaseEnv(source: Record<string, unknown>): SupabaseEnvCheck {
  const problems: string[] = [];
  const url = text(source[URL_VARIABLE]);
  const anonKey = text(source[KEY_VARIABLE]);

  if (!url) {
    problems.push(`${URL_VARIABLE} is not set.`);
  } else if (!HTTP_URL.test(url)) {
    problems.push(`${URL_VARIABLE} must be an http(s) URL, got "${url}".`);
  }
  if (!anonKey) problems.push(`${KEY_VARIABLE} is not set.`);

  if (problems.length > 0) return { ok: false, problems };
  // supabase-js appends its own paths; a trailing slash would double them.
  return { ok: true, env: { supabaseUrl: url.replace(/\/+$/, ''), supabaseAnonKey: anonKey } };
}
