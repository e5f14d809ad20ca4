import { describe, expect, inject, it } from 'vitest';
import { signToken } from '../../local/src/jwt.ts';
import { anonClient } from '../../local/test/auth-helpers.ts';

/**
 * The data model through the real API (gateway → PostgREST): coded errors become HTTP statuses
 * with the contract's body, guests read the catalogue, and the seeded demo users log in.
 * Only seeded rows are read; nothing is written that outlives the test.
 */
const env = inject('stackEnv');

const FREE_USER_ID = '00000000-0000-4000-8000-000000000101';

async function rpc(name: string, body: unknown, token?: string) {
  const response = await fetch(`${env.SUPABASE_URL}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      apikey: env.SUPABASE_ANON_KEY,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

function tokenFor(userId: string) {
  return signToken(env.SUPABASE_JWT_SECRET, {
    sub: userId,
    role: 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    exp: Math.floor(Date.now() / 1000) + 600,
  });
}

describe('data model over the REST API', () => {
  it('turns a coded RPC error into its HTTP status and body', async () => {
    const result = await rpc('switch_team', { p_team_id: null }, await tokenFor(FREE_USER_ID));
    expect(result).toEqual({
      status: 422,
      body: { code: 'PT422', message: 'team_required', details: 'Team required.', hint: 'team' },
    });
  });

  it('answers 404 for an unknown team and 401 for an anonymous caller', async () => {
    const unknown = await rpc(
      'switch_team',
      { p_team_id: '00000000-0000-4000-8000-00000000ffff' },
      await tokenFor(FREE_USER_ID),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: 'unknown_team', details: 'Unknown team.' });
    const anonymous = await rpc('switch_team', { p_team_id: null });
    expect(anonymous.status).toBe(401);
  });

  it("lets guests read the Enterprise plan with the spec's figures", async () => {
    const guest = anonClient();
    const { data, error } = await guest
      .from('plan_prices')
      .select('interval, amount, currency, options, plans!inner(name, trial_days, trial_available)')
      .eq('plans.name', 'enterprise')
      .order('interval');
    expect(error).toBeNull();
    const enterpriseOptions = {
      max_redirects: 5_000_000,
      max_active_aliases: 5_000_000,
      max_api_credits: 5_000_000,
      max_trackable_clicks: 5_000_000,
      max_branded_aliases_per_month: 5_000_000,
      max_aliases_per_month: 5_000_000,
      max_aliases: 15_000_000,
      alias_lifetime: 'P90D',
      analytics_period: 'P2Y',
      discounted_domain_count: 3,
      max_vanity_subdomains: 1,
      max_domains_subdomains: 25,
    };
    const plan = { name: 'enterprise', trial_days: 0, trial_available: false };
    expect(data).toEqual([
      {
        interval: 'monthly',
        amount: 179900,
        currency: 'USD',
        options: expect.objectContaining(enterpriseOptions),
        plans: plan,
      },
      {
        interval: 'yearly',
        amount: 1798800,
        currency: 'USD',
        options: expect.objectContaining(enterpriseOptions),
        plans: plan,
      },
    ]);
  });

  it('signs the seeded demo users in with password123 and shows them their own data', async () => {
    const client = anonClient();
    const { data, error } = await client.auth.signInWithPassword({
      email: 'free@shortlane.test',
      password: 'password123',
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(FREE_USER_ID);
    const profiles = await client
      .from('profiles')
      .select('id, email, status')
      .eq('id', FREE_USER_ID);
    expect(profiles.data).toEqual([{ id: FREE_USER_ID, email: 'free@shortlane.test', status: 8 }]);
    const invitations = await client
      .from('invitations')
      .select(
        'source, organization:organizations(slug), team:teams(slug), inviter:profiles!invitations_inviter_id_fkey(name)',
      )
      .eq('status', 'pending');
    expect(invitations.data).toEqual([
      {
        source: 'team',
        organization: { slug: 'acme' },
        team: { slug: 'sales' },
        inviter: { name: 'Mia Member' },
      },
    ]);
  });
});
