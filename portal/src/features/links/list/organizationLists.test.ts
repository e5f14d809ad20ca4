import { describe, expect, it } from 'vitest';
import { acceptsCreatedLink, organizationListScope } from './organizationLists.ts';

const ORG = 'org-1';
const ME = 'personal-1';
const MARKETING = 'team-account-marketing';
const SALES = 'team-account-sales';

describe('organization link lists', () => {
  it('lists every link made in the organization on its dashboard', () => {
    expect(organizationListScope({ kind: 'dashboard' }, ORG, ME)).toEqual({ organizationId: ORG });
  });

  it("lists the user's personal links made in the organization on org.me", () => {
    expect(organizationListScope({ kind: 'me' }, ORG, ME)).toEqual({
      accountId: ME,
      organizationId: ORG,
    });
  });

  it("lists a team's links on its page", () => {
    expect(organizationListScope({ kind: 'team', teamAccountId: MARKETING }, ORG, ME)).toEqual({
      accountId: MARKETING,
    });
  });

  it('adds a created link to the dashboard always', () => {
    expect(acceptsCreatedLink({ kind: 'dashboard' }, null)).toBe(true);
    expect(acceptsCreatedLink({ kind: 'dashboard' }, SALES)).toBe(true);
  });

  it('adds it to org.me only when made in the personal workspace', () => {
    expect(acceptsCreatedLink({ kind: 'me' }, null)).toBe(true);
    expect(acceptsCreatedLink({ kind: 'me' }, MARKETING)).toBe(false);
  });

  it("adds it to a team's page only when made in that team", () => {
    const page = { kind: 'team', teamAccountId: MARKETING } as const;
    expect(acceptsCreatedLink(page, MARKETING)).toBe(true);
    expect(acceptsCreatedLink(page, SALES)).toBe(false);
    expect(acceptsCreatedLink(page, null)).toBe(false);
  });
});
