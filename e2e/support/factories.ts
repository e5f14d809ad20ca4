import { randomUUID } from 'node:crypto';
import type { SupabaseClient, User } from '@supabase/supabase-js';
import type { StackEnv } from '../../supabase/local/src/stack.ts';
import { nodeSupabaseClient } from './supabase.ts';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  user: User;
}

/**
 * Seeds what a spec needs through the service role (the auth admin API and, later, PostgREST),
 * the way an operator would, and removes it again when the test ends. Every name is unique, so
 * tests can run in parallel on one database.
 */
export interface TestOrganization {
  id: string;
  accountId: string;
  slug: string;
  name: string;
}

export class Factories {
  private readonly admin: SupabaseClient;
  private readonly createdUserIds: string[] = [];

  constructor(env: StackEnv) {
    this.admin = nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
  }

  /** A unique e-mail address on a reserved domain, readable by the mailbox. */
  static uniqueEmail(label = 'user'): string {
    return `e2e-${label}-${randomUUID().slice(0, 8)}@example.com`;
  }

  /** A user who can log in at once: e-mail already confirmed, password known. */
  async createConfirmedUser(
    overrides: { email?: string; password?: string; userMetadata?: Record<string, unknown> } = {},
  ): Promise<TestUser> {
    const email = overrides.email ?? Factories.uniqueEmail();
    const password = overrides.password ?? `Pw-${randomUUID()}`;
    const { data, error } = await this.admin.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: overrides.userMetadata ?? {},
    });
    if (error || !data.user) {
      throw new Error(
        `Could not create the user ${email}: ${error?.message ?? 'no user returned'}`,
      );
    }
    this.createdUserIds.push(data.user.id);
    return { id: data.user.id, email, password, user: data.user };
  }

  /**
   * An organization owned by a user (its account and its row, as the back-office makes them);
   * deleting the owner removes both.
   */
  async createOrganization(owner: TestUser, name?: string): Promise<TestOrganization> {
    const slug = `e2e-org-${randomUUID().slice(0, 8)}`;
    const orgName = name ?? `Organization ${slug}`;
    const account = await this.admin
      .from('accounts')
      .insert({ kind: 'organization', owner_id: owner.id, name: orgName })
      .select('id')
      .single();
    if (account.error) throw new Error(`Could not create ${slug}: ${account.error.message}`);
    const organization = await this.admin
      .from('organizations')
      .insert({ account_id: account.data.id, slug, name: orgName })
      .select('id')
      .single();
    if (organization.error) {
      throw new Error(`Could not create ${slug}: ${organization.error.message}`);
    }
    return { id: organization.data.id, accountId: account.data.id, slug, name: orgName };
  }

  /** Removes everything this factory created; called by the fixture after each test. */
  async cleanup(): Promise<void> {
    const failures: string[] = [];
    for (const id of this.createdUserIds.splice(0).reverse()) {
      const { error } = await this.admin.auth.admin.deleteUser(id);
      if (error && error.status !== 404) failures.push(`${id}: ${error.message}`);
    }
    if (failures.length) throw new Error(`Could not delete test users: ${failures.join('; ')}`);
  }
}
