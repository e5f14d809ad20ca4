import { VIEWER_ONLY_SUFFIX } from '@shortlane/shared/permissions.ts';
import { describe, expect, it, vi } from 'vitest';
import { bodyTeam, workspaceRoute } from '../../../data/links-create-mutation.ts';
import type { TeamSummary } from '../../../data/teams-query.ts';
import { createErrorGate } from './antiRobotNotices.ts';
import { domainOptionsFor } from './domainOptions.ts';
import { expiryInputBounds, expiryInputError, localInputToUtcIso } from './expiry.ts';
import { sortCreateErrors } from './formErrors.ts';
import { tagErrorLines } from './TagsField.tsx';
import { domainRow } from './testing.ts';
import { CREATE_ATTEMPT_EVENT, trackCreateAttempt } from './tracking.ts';
import { PERSONAL_TEAM, teamOptions, workspaceFor } from './workspace.ts';

const PERSONAL = 'acct-personal';
const TEAM_ACCOUNT = 'acct-team';
const ORG_ACCOUNT = 'acct-org';

describe('domainOptionsFor', () => {
  const rows = [
    domainRow('common.test', { allow_for_guests: true }),
    domainRow('mine.test', { kind: 'branded', account_id: PERSONAL }),
    domainRow('team.test', { kind: 'branded', account_id: TEAM_ACCOUNT }),
    domainRow('org-all.test', { kind: 'organization', account_id: ORG_ACCOUNT }),
    domainRow('org-mkt.test', {
      kind: 'organization',
      account_id: ORG_ACCOUNT,
      for_all_teams: false,
      domain_teams: [{ team: { slug: 'marketing' } }],
    }),
  ];

  it('gives the personal workspace the common domains and its own branded ones', () => {
    const options = domainOptionsFor(rows, { accountId: PERSONAL, organizationAccountId: null });
    expect(options.map((option) => option.domain)).toEqual(['common.test', 'mine.test']);
    expect(options[0]).toMatchObject({ type: 'common', allowForGuests: true, isDeleted: false });
  });

  it("gives a team of an organization its own and the organization's domains, with their teams", () => {
    const options = domainOptionsFor(rows, {
      accountId: TEAM_ACCOUNT,
      organizationAccountId: ORG_ACCOUNT,
    });
    expect(options.map((option) => option.domain)).toEqual([
      'common.test',
      'team.test',
      'org-all.test',
      'org-mkt.test',
    ]);
    expect(options[3]).toMatchObject({
      type: 'organization',
      for_all_teams: false,
      teams: [{ slug: 'marketing' }],
    });
  });

  it('gives a guest (no account) the common domains only', () => {
    const options = domainOptionsFor(rows, { accountId: null, organizationAccountId: null });
    expect(options.map((option) => option.domain)).toEqual(['common.test']);
  });
});

const team = (overrides: Partial<TeamSummary>): TeamSummary => ({
  id: 'team-1',
  accountId: 'team-account-1',
  slug: 'marketing',
  name: 'Marketing',
  role: 'member',
  orgSlug: 'acme',
  ...overrides,
});

describe('team choice', () => {
  const teams = [
    team({ id: 't-sales', slug: 'sales', name: 'Sales', role: 'member' }),
    team({ id: 't-mkt', slug: 'marketing', name: 'Marketing', role: 'viewer' }),
    team({ id: 't-solo', slug: 'solo', name: 'Solo', role: 'admin', orgSlug: '_' }),
  ];

  it('offers the personal workspace first, then teams by name, viewers disabled and labelled', () => {
    expect(teamOptions(teams, null)).toEqual([
      { value: PERSONAL_TEAM, label: 'Personal', disabled: false },
      { value: 't-mkt', label: `Marketing ${VIEWER_ONLY_SUFFIX}`, disabled: true },
      { value: 't-sales', label: 'Sales', disabled: false },
      { value: 't-solo', label: 'Solo', disabled: false },
    ]);
  });

  it("keeps a viewer's team choosable for holders of the teams authorization", () => {
    const acme = { slug: 'acme', accountId: ORG_ACCOUNT, canManageTeams: true };
    expect(teamOptions(teams, acme).map((option) => [option.label, option.disabled])).toEqual([
      ['Personal', false],
      ['Marketing', false],
      ['Sales', false],
    ]);
  });

  it('sends a link to the route of its workspace', () => {
    expect(workspaceFor(PERSONAL_TEAM, teams, null)).toEqual({ kind: 'own', team: null });
    expect(workspaceFor('t-solo', teams, null)).toEqual({ kind: 'own', team: 'solo' });
    const sales = workspaceFor('t-sales', teams, null);
    expect(sales).toEqual({ kind: 'organization-team', organization: 'acme', team: 'sales' });
    const acme = { slug: 'acme', accountId: ORG_ACCOUNT, canManageTeams: false };
    const personalInAcme = workspaceFor(PERSONAL_TEAM, teams, acme);
    expect(personalInAcme).toEqual({ kind: 'organization-personal', organization: 'acme' });

    expect(workspaceRoute({ kind: 'own', team: 'solo' }, 'url/create')).toBe('url/create');
    expect(bodyTeam({ kind: 'own', team: 'solo' })).toBe('solo');
    expect(workspaceRoute(sales, 'bulk/csv')).toBe('organization/acme/team/sales/bulk/csv');
    expect(workspaceRoute(personalInAcme, 'url/create')).toBe(
      'organization/acme/personal/url/create',
    );
    expect(bodyTeam(personalInAcme)).toBeNull();
  });
});

describe('expiry picker', () => {
  const now = new Date('2026-11-22T12:00:30Z');

  it('reads the local picker value and sends UTC', () => {
    const local = new Date('2026-12-01T09:30:00');
    expect(localInputToUtcIso('2026-12-01T09:30')).toBe(local.toISOString());
    expect(localInputToUtcIso('2026-12-01')).toBeNull();
  });

  it('accepts nothing picked, refuses a time within 5 minutes and one past 5 years', () => {
    expect(expiryInputError('', now)).toBeNull();
    const soon = new Date(now.getTime() + 3 * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (d: Date) =>
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    expect(expiryInputError(local(soon), now)).toBe(
      'The expiry must be at least 5 minutes from now.',
    );
    expect(expiryInputError(local(new Date(now.getTime() + 3_600_000)), now)).toBeNull();
    expect(expiryInputError('2032-01-01T00:00', now)).toBe('The expiry must be within 5 years.');
    expect(expiryInputError('2026-02-30T10:00', now)).toBe('The expiry is not a valid date.');
  });

  it('bounds the picker from today to 5 years ahead', () => {
    const bounds = expiryInputBounds(now);
    expect(bounds.min).toMatch(/^2026-11-2[12]T00:00$/);
    expect(bounds.max).toMatch(/^2031-11-2[12]T23:59$/);
  });
});

describe('refusals on the form', () => {
  it('puts the first message per field under it, bot check and CCPA apart, the rest on the form', () => {
    expect(
      sortCreateErrors({
        url: 'This URL is not allowed.',
        expires_at: 'The expiry must be within 5 years.',
        'tags.1': 'The tag has already been taken.',
        domain: 'billing.not_subscribed',
        anti_robot_token: 'An error has occurred during turnstile validation',
        ccpa_accepted: 'The ccpa accepted field must be accepted.',
        form: "You've hit your plan's limit for creating links",
      }),
    ).toEqual({
      fields: {
        url: 'This URL is not allowed.',
        expiresAt: 'The expiry must be within 5 years.',
        'tags.1': 'The tag has already been taken.',
        domain: 'This needs a subscription.',
      },
      botCheck: 'An error has occurred during turnstile validation',
      ccpa: 'The ccpa accepted field must be accepted.',
      form: "You've hit your plan's limit for creating links",
    });
  });

  it('names each tag its error belongs to, in list order', () => {
    expect(
      tagErrorLines(['ok', 'a', 'ok'], {
        'tags.2': 'The tag has already been taken.',
        'tags.1': 'The tag must be at least 2 characters.',
      }),
    ).toEqual([
      '“a”: The tag must be at least 2 characters.',
      '“ok”: The tag has already been taken.',
    ]);
  });
});

describe('anti-robot error gate', () => {
  it('lets one error through per 60 s', () => {
    let now = 0;
    const gate = createErrorGate(60_000, () => now);
    expect(gate.allow()).toBe(true);
    now = 59_999;
    expect(gate.allow()).toBe(false);
    now = 60_000;
    expect(gate.allow()).toBe(true);
  });
});

describe('tracking', () => {
  it('fires an event per attempt when the pixel exists, and nothing without it', () => {
    const fbq = vi.fn();
    trackCreateAttempt('refused', 'single', { fbq });
    expect(fbq).toHaveBeenCalledWith('trackCustom', CREATE_ATTEMPT_EVENT, {
      outcome: 'refused',
      mode: 'single',
    });
    expect(() => trackCreateAttempt('created', 'bulk', {})).not.toThrow();
  });
});
