import { describe, expect, it } from 'vitest';
import type { FeatureContext } from './features.ts';
import { linkCreatePayload } from './links.ts';
import type { LinkCreate } from './schemas/link.ts';

const FORM: LinkCreate = {
  url: 'https://example.com',
  domain: 'short.test',
  alias: null,
  description: 'Launch page',
  team: 'sales',
  tags: ['launch'],
  anti_robot_token: null,
  expires_at: null,
};

describe('create payload by workspace (link-creation 5)', () => {
  it('drops the description outside organization mode and keeps tags', () => {
    const personal: FeatureContext = {
      kind: 'personal',
      user: { features: [] },
      teamModeTeam: null,
    };
    expect(linkCreatePayload(FORM, personal)).toEqual({ ...FORM, description: null });
  });

  it('sends tags in organization mode only if the team may manage tags', () => {
    const inTeam = (teamFeatures: string[]): FeatureContext => ({
      kind: 'organization',
      user: { features: ['use_tags'] },
      organization: { features: ['use_tags'] },
      team: { features: teamFeatures },
    });
    expect(linkCreatePayload(FORM, inTeam(['use_tags']))).toEqual(FORM);
    expect(linkCreatePayload(FORM, inTeam([]))).toEqual({ ...FORM, tags: [] });
  });
});
