import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { stackEnv } from './stack.ts';
import { nodeSupabaseClient } from './supabase.ts';

/** Every demo user's password (supabase/seeds/10_accounts.sql). */
export const DEMO_PASSWORD = 'password123';

/** The widths the shell is checked at: the spec's breakpoints sm, md, lg, xl. */
export const BREAKPOINT_WIDTHS = [576, 768, 992, 1200] as const;

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * axe-core's findings of serious or critical impact, one line each with the offending
 * elements, for a readable diff. Lesser findings are printed, not failed.
 */
export async function seriousAccessibilityViolations(page: Page, label: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const line = (violation: (typeof violations)[number]) =>
    `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
      .map((node) => node.target.join(' '))
      .join(', ')})`;
  const minor = violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length > 0) console.log(`axe, ${label}: ${minor.map(line).join('; ')}`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(line);
}

/** The stack as the service role: for reading the catalogue and seeding rows RLS keeps from users. */
export function serviceClient(): SupabaseClient {
  const env = stackEnv();
  return nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
}

/** A client signed in with `user`'s password, as the portal would be. */
export async function signedInClient(user: {
  email: string;
  password: string;
}): Promise<SupabaseClient> {
  const env = stackEnv();
  const client = nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY);
  const { error } = await client.auth.signInWithPassword({
    email: user.email,
    password: user.password,
  });
  if (error) throw new Error(`Could not sign in ${user.email}: ${error.message}`);
  return client;
}
