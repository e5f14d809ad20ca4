import { readSupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/** Checked once at start-up: main.tsx shows a configuration screen instead of the app if it fails. */
export const envCheck = readSupabaseEnv(import.meta.env);
