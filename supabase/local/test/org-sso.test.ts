import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anonClient,
  closeDatabase,
  database,
  env,
  serviceClient,
  signedInClient,
} from './auth-helpers.ts';
import {
  adminSso,
  fragmentOf,
  idpMetadata,
  newSigningPair,
  postToAcs,
  requestOf,
  responseFor,
} from './sso-helpers.ts';

/**
 * An organization's single sign-on end to end on the stack: the org-sso function registers the
 * IdP with Auth, a domain claim is proved through the DNS sandbox and reaches Auth, "require SSO"
 * refuses the password of a user at that domain (Auth's password hook), and a first SSO sign-in
 * joins the organization with its default role, in the audit trail.
 */

afterAll(closeDatabase);

async function enterpriseOrganization(ownerId: string) {
  const db = database();
  const slug = `sso-${randomUUID().slice(0, 8)}`;
  const { rows: accounts } = await db.query<{ id: string }>(
    `insert into public.accounts (kind, owner_id, name, features)
     values ('organization', $1, $2, '{sso}') returning id`,
    [ownerId, slug],
  );
  const { rows: organizations } = await db.query<{ id: string }>(
    `insert into public.organizations (account_id, slug, name) values ($1, $2, $3) returning id`,
    [accounts[0]!.id, slug, slug],
  );
  const organizationId = organizations[0]!.id;
  const { rows: roles } = await db.query<{ id: string }>(
    `insert into public.organization_roles (organization_id, name, permissions)
     values ($1, 'Reader', '{}') returning id`,
    [organizationId],
  );
  return { organizationId, slug, roleId: roles[0]!.id };
}

async function putTxt(name: string, zone: string, value: string) {
  const response = await fetch(`${env.DNS_SANDBOX_API}/zones/${zone}/records`, {
    method: 'PUT',
    headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ name, type: 'TXT', value }),
  });
  expect(response.status).toBeLessThan(300);
}

describe('organization single sign-on', () => {
  it('an owner sets it up; passwords at the domain are refused; SSO users join the organization', async () => {
    const { client: owner, user: ownerUser } = await signedInClient('sso-owner');
    const { organizationId, slug, roleId } = await enterpriseOrganization(ownerUser.id);
    const pair = await newSigningPair();
    const entityId = `https://idp-${slug}.example.test/metadata`;

    const saved = await owner.functions.invoke('org-sso', {
      body: {
        action: 'save_provider',
        organization_id: organizationId,
        metadata_xml: idpMetadata(entityId, pair),
      },
    });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({ entity_id: entityId, require_sso: false });
    const providerId = (saved.data as { provider_id: string }).provider_id;

    const domain = `${slug}.example.test`;
    const claimed = await owner.rpc('claim_sso_domain', {
      p_organization_id: organizationId,
      p_domain: domain,
    });
    expect(claimed.error).toBeNull();
    const claim = claimed.data as { id: string; verification_token: string };

    const early = await owner.functions.invoke('org-sso', {
      body: { action: 'verify_domain', domain_id: claim.id },
    });
    expect(early.response?.status).toBe(422);
    expect(await early.response?.json()).toMatchObject({
      code: 'validation_failed',
      errors: { domain: [`No TXT record at _shortlane-sso.${domain} yet.`] },
    });
    // Not yet proved, so not yet Auth's: nobody can sign in with SSO by it.
    expect((await anonClient().auth.signInWithSSO({ domain })).error?.code).toBe(
      'sso_provider_not_found',
    );

    await putTxt(`_shortlane-sso.${domain}`, domain, claim.verification_token);
    const verified = await owner.functions.invoke('org-sso', {
      body: { action: 'verify_domain', domain_id: claim.id },
    });
    expect(verified.data).toMatchObject({ status: 'verified', verified_by: 'dns' });
    expect((await adminSso('GET', `/${providerId}`)).body.domains).toEqual([{ domain }]);

    const options = await owner.rpc('set_sso_options', {
      p_organization_id: organizationId,
      p_default_role_id: roleId,
      p_require_sso: true,
    });
    expect(options.error).toBeNull();

    // A password account at the domain is refused, whatever its password.
    const email = `pat@${domain}`;
    await serviceClient().auth.admin.createUser({
      email,
      password: 'pat-password-1',
      email_confirm: true,
    });
    const password = await anonClient().auth.signInWithPassword({
      email,
      password: 'pat-password-1',
    });
    expect(password.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Your organization requires single sign-on. Use "Sign in with SSO".',
    });

    // The same person through the organization's IdP: a session, and membership by default.
    const { data } = await anonClient().auth.signInWithSSO({
      domain,
      options: { redirectTo: 'http://localhost:5173/app' },
    });
    const { id, relayState } = await requestOf(data!.url);
    const target = await postToAcs(
      responseFor({ id: providerId, entityId, domain, pair }, { email, inResponseTo: id }),
      relayState,
    );
    const session = fragmentOf(target);
    const sso = anonClient();
    await sso.auth.setSession({
      access_token: session.get('access_token')!,
      refresh_token: session.get('refresh_token')!,
    });
    const { data: memberships } = await sso
      .from('organization_users')
      .select('organization_id, role_id');
    expect(memberships).toEqual([{ organization_id: organizationId, role_id: roleId }]);
    const { rows: trail } = await database().query(
      `select action from public.audit_events where organization_id = $1 and action like 'sso.%'`,
      [organizationId],
    );
    expect(trail).toEqual([{ action: 'sso.signed_in' }]);
    // The password stays refused once an SSO user with the same address exists.
    const again = await anonClient().auth.signInWithPassword({ email, password: 'pat-password-1' });
    expect(again.error?.message).toBe(
      'Your organization requires single sign-on. Use "Sign in with SSO".',
    );
  });

  it('refuses people without the SSO permission, and organizations without the feature', async () => {
    const { user: ownerUser } = await signedInClient('sso-owner2');
    const { organizationId } = await enterpriseOrganization(ownerUser.id);
    const { client: stranger } = await signedInClient('sso-stranger');
    const refused = await stranger.functions.invoke('org-sso', {
      body: {
        action: 'save_provider',
        organization_id: organizationId,
        metadata_url: env.SAML_IDP_METADATA_URL,
      },
    });
    expect(refused.response?.status).toBe(403);
    expect(await refused.response?.json()).toMatchObject({ code: 'sso_forbidden' });
    const guest = await anonClient().functions.invoke('org-sso', {
      body: { action: 'sync', organization_id: organizationId },
    });
    expect(guest.response?.status).toBe(403);

    const { client: free, user: freeUser } = await signedInClient('sso-free');
    const plain = await enterpriseOrganization(freeUser.id);
    await database().query(
      `update public.accounts set features = '{}' where owner_id = $1 and kind = 'organization'`,
      [freeUser.id],
    );
    const noPlan = await free.functions.invoke('org-sso', {
      body: {
        action: 'save_provider',
        organization_id: plain.organizationId,
        metadata_url: env.SAML_IDP_METADATA_URL,
      },
    });
    expect(noPlan.response?.status).toBe(402);
    expect(await noPlan.response?.json()).toMatchObject({ code: 'sso_plan_required' });
  });
});
