import { readSupabaseEnv, type SupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/** What the kiosk needs besides Supabase: where the portal is (impersonation opens it). */
export interface KioskEnv extends SupabaseEnv {
  portalUrl: string;
}

export type KioskEnvCheck = { ok: true; env: KioskEnv } | { ok: false; problems: string[] };

const PORTAL_VARIABLE = 'VITE_PORTAL_URL';
const HTTP_URL = /^https?:\/\/[^\s/?#]+\/?$/i;

/** Reads the Supabase settings and VITE_PORTAL_URL (an origin, such as http://localhost:5173). */
export function readKioskEnv(source: Record<string, unknown>): KioskEnvCheck {
  const supabase = readSupabaseEnv(source);
  const problems = supabase.ok ? [] : [...supabase.problems];
  const raw = source[PORTAL_VARIABLE];
  const portalUrl = typeof raw === 'string' ? raw.trim() : '';
  if (!portalUrl) problems.push(`${PORTAL_VARIABLE} is not set.`);
  else if (!HTTP_URL.test(portalUrl)) {
    problems.push(`${PORTAL_VARIABLE} must be the portal's http(s) origin, got "${portalUrl}".`);
  }
  if (!supabase.ok || problems.length > 0) return { ok: false, problems };
  return { ok: true, env: { ...supabase.env, portalUrl: portalUrl.replace(/\/+$/, '') } };
}

/** Checked once at start-up: main.tsx shows a configuration screen instead of the app if it fails. */
export const envCheck = readKioskEnv(import.meta.env);
