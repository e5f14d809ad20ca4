import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import { nodeSupabaseClient } from '../support/supabase.ts';
import { makeStaff } from './kiosk-support.ts';

/**
 * Organization single sign-on with the stack's sandbox identity provider: the owner registers
 * it, claims a domain and proves it by DNS, picks the default role and requires SSO; a person at
 * that domain signs in through the IdP and lands in the organization; the same person's password
 * is refused.
 */

const env = stackEnv();
const REFUSAL = 'Your organization requires single sign-on. Use "Sign in with SSO".';
const adminHeaders = {
  apikey: env.SUPABASE_SERVICE_ROLE_KEY,
  authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
};

/** The sandbox IdP registers once per Auth: a provider left by an earlier run is removed. */
async function forgetSandboxProvider(): Promise<void> {
  const response = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/sso/providers`, {
    headers: adminHeaders,
  });
  const { items } = (await response.json()) as {
    items: { id: string; saml: { entity_id: string } }[];
  };
  for (const item of items.filter((each) => each.saml.entity_id === env.SAML_IDP_METADATA_URL)) {
    await fetch(`${env.SUPABASE_URL}/auth/v1/admin/sso/providers/${item.id}`, {
      method: 'DELETE',
      headers: adminHeaders,
    });
  }
}

test('an owner sets up SSO; a member signs in through the IdP; their password is refused', async ({
  page,
  factories,
}) => {
  // Two people, an identity provider and DNS in one story: longer than the default minute.
  test.slow();
  await forgetSandboxProvider();
  const admin = serviceClient();
  // Organization pages are behind the developer flag for now (the rollout switch).
  const owner = await makeStaff(await factories.createConfirmedUser());
  const organization = await factories.createOrganization(owner, 'Globex');
  await admin
    .from('accounts')
    .update({ features: ['sso'] })
    .eq('id', organization.accountId);
  const role = await admin
    .from('organization_roles')
    .insert({ organization_id: organization.id, name: 'Reader', permissions: [] })
    .select('id')
    .single();
  const domain = `globex-${randomUUID().slice(0, 8)}.test`;
  const member = await factories.createConfirmedUser({ email: `pat@${domain}` });
  let ssoUserId: string | undefined;

  try {
    await page.goto('/app/login');
    await logIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    await page.goto(`/app/organizations/${organization.slug}/settings/profile/sso`);

    const provider = page.getByRole('region', { name: 'Identity provider' });
    await provider.getByRole('textbox', { name: 'Metadata URL' }).fill(env.SAML_IDP_METADATA_URL);
    await provider.getByRole('button', { name: 'Save identity provider' }).click();
    await expect(page.getByText('The identity provider has been saved.')).toBeVisible();
    await expect(provider.getByText(`Registered: ${env.SAML_IDP_METADATA_URL}`)).toBeVisible();

    const domains = page.getByRole('region', { name: 'Domains' });
    await domains.getByRole('textbox', { name: 'Domain' }).fill(domain);
    await domains.getByRole('button', { name: 'Claim domain' }).click();
    await expect(domains.getByText('Pending', { exact: true })).toBeVisible();
    const claim = await admin
      .from('organization_sso_domains')
      .select('verification_token')
      .eq('domain', domain)
      .single();
    await fetch(`${env.DNS_SANDBOX_API}/zones/${domain}/records`, {
      method: 'PUT',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `_shortlane-sso.${domain}`,
        type: 'TXT',
        value: claim.data!.verification_token,
      }),
    });
    await domains.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect(domains.getByText('Verified', { exact: true })).toBeVisible();

    const options = page.getByRole('region', { name: 'Sign-in options' });
    await options.getByRole('combobox', { name: 'Default role for new members' }).click();
    await page.getByRole('option', { name: 'Reader' }).click();
    await options
      .getByRole('checkbox', { name: 'Require single sign-on for people at these domains' })
      .check();
    await options.getByRole('button', { name: 'Save options' }).click();
    await expect(page.getByText('The sign-in options have been saved.')).toBeVisible();
    const saved = await admin
      .from('organization_sso')
      .select('require_sso, default_role_id')
      .eq('organization_id', organization.id)
      .single();
    expect(saved.data).toEqual({ require_sso: true, default_role_id: role.data!.id });
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeHidden();

    // The member: "Sign in with SSO", the sandbox IdP's login page, back signed in.
    await page.goto('/app/login');
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByRole('textbox', { name: 'Work e-mail or organization' }).fill(member.email);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await expect(page.getByRole('heading', { name: 'Sandbox identity provider' })).toBeVisible();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(member.email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    // Into the organization: a member with a role lands on their own links there.
    await expect(page).toHaveURL(`/app/organizations/${organization.slug}/me`);
    const joined = await admin
      .from('organization_users')
      .select('user_id, role_id, profile:profiles(email)')
      .eq('organization_id', organization.id);
    expect(joined.data).toEqual([
      { user_id: expect.any(String), role_id: role.data!.id, profile: { email: member.email } },
    ]);
    ssoUserId = joined.data![0]!.user_id;
    expect(ssoUserId).not.toBe(member.id);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeHidden();

    // The same person's password no longer signs in.
    const direct = await nodeSupabaseClient(
      env.SUPABASE_URL,
      env.SUPABASE_ANON_KEY,
    ).auth.signInWithPassword({
      email: member.email,
      password: member.password,
    });
    // Refused by Auth itself (its password hook), not only by the page.
    expect(direct.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: REFUSAL,
    });
    await page.goto('/app/login');
    await logIn(page, member.email, member.password);
    await expect(page.getByRole('alert')).toContainText(REFUSAL);
  } finally {
    if (ssoUserId) await admin.auth.admin.deleteUser(ssoUserId);
    await forgetSandboxProvider();
  }
});
