import { describe, expect, it } from 'vitest';
import type { DomainOption, DomainViewer } from './domains.ts';
import {
  addDomainAccess,
  customAliasAccess,
  domainChoices,
  domainLock,
  isDomainForTeam,
  isDomainSelectable,
  resolveDomain,
} from './domains.ts';

function domain(name: string, overrides: Partial<DomainOption> = {}): DomainOption {
  return {
    domain: name,
    type: 'common',
    isDisabled: false,
    isDeleted: false,
    isBlocked: false,
    requireEmailVerification: false,
    subscribedOnly: false,
    allowForGuests: false,
    guestCanUseCustomAlias: false,
    ...overrides,
  };
}

const GUEST: DomainViewer = { loggedIn: false };
const member = (
  facts: Partial<{ verified: boolean; subscribed: boolean; inOrganization: boolean }> = {},
): DomainViewer => ({
  loggedIn: true,
  verified: true,
  subscribed: false,
  inOrganization: false,
  ...facts,
});

describe('domain selectability (link-creation 5)', () => {
  it('lets guests choose only domains that allow guests', () => {
    expect(isDomainSelectable(domain('a.test', { allowForGuests: true }), GUEST)).toBe(true);
    expect(domainLock(domain('a.test'), GUEST)).toBe('domain_guests_only_logged_in');
  });

  it('locks e-mail-verification domains for users who are unverified and unsubscribed', () => {
    const d = domain('v.test', { requireEmailVerification: true });
    expect(domainLock(d, member({ verified: false }))).toBe('email_verification');
    expect(domainLock(d, member({ verified: false, subscribed: true }))).toBeNull();
    expect(domainLock(d, member({ verified: true }))).toBeNull();
  });

  it('locks subscriber-only domains outside an organization for unsubscribed users', () => {
    const d = domain('s.test', { subscribedOnly: true });
    expect(domainLock(d, member())).toBe('not_subscribed');
    expect(domainLock(d, member({ subscribed: true }))).toBeNull();
    expect(domainLock(d, member({ inOrganization: true }))).toBeNull();
  });

  it('hides disabled, deleted and blocked domains and sorts the rest by name', () => {
    const choices = domainChoices(
      [
        domain('zeta.test'),
        domain('off.test', { isDisabled: true }),
        domain('gone.test', { isDeleted: true }),
        domain('bad.test', { isBlocked: true }),
        domain('alpha.test'),
        domain('mid.test'),
      ],
      member(),
    );
    expect(choices.map((choice) => choice.option.domain)).toEqual([
      'alpha.test',
      'mid.test',
      'zeta.test',
    ]);
  });

  it("shows guests the locked-domain tooltip 'This domain is not available to guest users.'", () => {
    const [open, locked] = domainChoices(
      [domain('a.test', { allowForGuests: true }), domain('b.test')],
      GUEST,
    );
    expect(open).toMatchObject({ selectable: true, lock: null, tooltip: null });
    expect(locked).toMatchObject({
      selectable: false,
      lock: 'domain_guests_only_logged_in',
      tooltip: 'This domain is not available to guest users.',
    });
  });

  it('filters organization domains by the selected team unless they apply to all teams', () => {
    const forSales = domain('sales.test', { type: 'organization', teams: [{ slug: 'sales' }] });
    const forAll = domain('all.test', { type: 'organization', for_all_teams: true, teams: [] });
    expect(isDomainForTeam(forSales, 'sales')).toBe(true);
    expect(isDomainForTeam(forSales, 'ops')).toBe(false);
    expect(isDomainForTeam(forSales, null)).toBe(false);
    expect(isDomainForTeam(forAll, 'ops')).toBe(true);
    expect(isDomainForTeam(domain('common.test'), 'ops')).toBe(true);
    expect(
      domainChoices([forSales, forAll], member({ inOrganization: true }), 'ops').map(
        (choice) => choice.option.domain,
      ),
    ).toEqual(['all.test']);
  });
});

describe('domain fallback (link-creation 4)', () => {
  const choices = domainChoices(
    [domain('a.test', { allowForGuests: true }), domain('b.test', { allowForGuests: true })],
    GUEST,
  );

  it('keeps the preferred domain when selectable, else takes the first selectable one', () => {
    expect(resolveDomain(choices, 'app.local', 'b.test')).toEqual({
      domain: 'b.test',
      error: null,
    });
    expect(resolveDomain(choices, 'app.local', 'elsewhere.test')).toEqual({
      domain: 'a.test',
      error: null,
    });
  });

  it("falls back to the current host with 'domain_not_found' when no domain is usable", () => {
    const locked = domainChoices([domain('a.test')], GUEST);
    expect(resolveDomain(locked, 'app.local')).toEqual({
      domain: 'app.local',
      error: 'domain_not_found',
    });
    expect(resolveDomain([], 'app.local')).toEqual({
      domain: 'app.local',
      error: 'domain_not_found',
    });
  });
});

describe('custom alias field (link-creation 5 and 8)', () => {
  const guestAliasDomain = domain('g.test', { allowForGuests: true, guestCanUseCustomAlias: true });

  it('is enabled for guests only on a domain that allows guest aliases, else sends them to register', () => {
    expect(
      customAliasAccess({ viewer: GUEST, planAllowsCustomAlias: false, domain: guestAliasDomain }),
    ).toEqual({ enabled: true });
    expect(
      customAliasAccess({ viewer: GUEST, planAllowsCustomAlias: true, domain: domain('x.test') }),
    ).toEqual({ enabled: false, tooltip: 'custom_alias_not_allowed', redirect: 'register' });
    expect(
      customAliasAccess({ viewer: GUEST, planAllowsCustomAlias: true, domain: null }),
    ).toMatchObject({
      enabled: false,
    });
  });

  it('is enabled for logged-in users whose plan allows it', () => {
    expect(
      customAliasAccess({ viewer: member(), planAllowsCustomAlias: true, domain: null }),
    ).toEqual({ enabled: true });
    expect(
      customAliasAccess({
        viewer: member(),
        planAllowsCustomAlias: false,
        domain: guestAliasDomain,
      }),
    ).toEqual({ enabled: false, tooltip: 'custom_alias_not_allowed', redirect: null });
  });

  it("sends unverified users to e-mail verification with the 'email_verification' tooltip", () => {
    expect(
      customAliasAccess({
        viewer: member({ verified: false }),
        planAllowsCustomAlias: true,
        domain: null,
      }),
    ).toEqual({ enabled: false, tooltip: 'email_verification', redirect: 'email_verify' });
  });
});

describe('Add Domain (link-creation 8)', () => {
  it("sends guests to register with 'log_in_or_register'", () => {
    expect(addDomainAccess(GUEST)).toEqual({
      allowed: false,
      message: 'log_in_or_register',
      redirect: 'register',
    });
  });

  it("sends unverified users to verify with 'email_verification_check'", () => {
    expect(addDomainAccess(member({ verified: false, subscribed: true }))).toEqual({
      allowed: false,
      message: 'email_verification_check',
      redirect: 'email_verify',
    });
  });

  it("sends non-subscribers to the subscription with 'billing.not_subscribed'", () => {
    expect(addDomainAccess(member())).toEqual({
      allowed: false,
      message: 'billing.not_subscribed',
      redirect: 'settings.subscription',
    });
    expect(addDomainAccess(member({ subscribed: true }))).toEqual({ allowed: true });
  });
});
