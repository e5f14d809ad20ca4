import { describe, expect, it } from 'vitest';
import { reachesOrganizations, type OrganizationAccessFacts } from './organizationAccess.ts';

const nobody: OrganizationAccessFacts = {
  isDeveloper: false,
  previewFeatures: [],
  organizationCount: 0,
  inOrganizationTeam: false,
};

describe('reachesOrganizations', () => {
  it('keeps a user who belongs to no organization out', () => {
    expect(reachesOrganizations(nobody)).toBe(false);
    expect(reachesOrganizations({ ...nobody, previewFeatures: ['something-else'] })).toBe(false);
  });

  it.each([
    ['staff', { isDeveloper: true }],
    ['the organizations preview feature', { previewFeatures: ['organizations'] }],
    ['an owner or organization user', { organizationCount: 1 }],
    ["a member of an organization's team", { inOrganizationTeam: true }],
  ] as const)('lets in %s', (_, facts) => {
    expect(reachesOrganizations({ ...nobody, ...facts })).toBe(true);
  });
});
