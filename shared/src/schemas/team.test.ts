import { describe, expect, it } from 'vitest';
import { slugFromName } from '../slug.ts';
import { teamInvitationSchema, teamProfileSchema } from './team.ts';

describe('team schemas', () => {
  it('accepts a name and a slug of lower-case words', () => {
    expect(teamProfileSchema.parse({ name: ' Growth ', slug: 'growth-team' })).toEqual({
      name: 'Growth',
      slug: 'growth-team',
    });
  });

  it('refuses an empty name and a malformed slug with the database messages', () => {
    const result = teamProfileSchema.safeParse({ name: ' ', slug: 'Growth Team' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => issue.message);
    expect(messages).toContain('The name field is required.');
    expect(messages).toContain('The slug may only contain lower-case letters, numbers and dashes.');
  });

  it('wants an e-mail address and a team role for an invitation', () => {
    expect(teamInvitationSchema.safeParse({ email: 'a@b.test', role: 'viewer' }).success).toBe(
      true,
    );
    expect(teamInvitationSchema.safeParse({ email: 'nope', role: 'viewer' }).success).toBe(false);
    expect(teamInvitationSchema.safeParse({ email: 'a@b.test', role: 'owner' }).success).toBe(
      false,
    );
  });

  it('suggests a slug from a name', () => {
    expect(slugFromName('  Growth & Sales Team! ')).toBe('growth-sales-team');
    expect(slugFromName('Équipe')).toBe('equipe');
  });
});
