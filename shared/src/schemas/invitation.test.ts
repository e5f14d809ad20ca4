import { describe, expect, it } from 'vitest';
import { invitationAnswerSchema } from './invitation.ts';
import { firstErrorPerField } from './rules.ts';

const ID = '7f1c1f8e-3b4a-4c2d-9e5f-0a1b2c3d4e5f';

describe('invitation answer schema (link-creation 4 and 7)', () => {
  it('accepts accept and reject for organization and team invitations', () => {
    expect(
      invitationAnswerSchema.parse({ invitation_id: ID, source: 'team', answer: 'accept' }),
    ).toEqual({
      invitation_id: ID,
      source: 'team',
      answer: 'accept',
    });
    expect(
      invitationAnswerSchema.safeParse({
        invitation_id: ID,
        source: 'organization',
        answer: 'reject',
      }).success,
    ).toBe(true);
  });

  it('refuses unknown invitations and answers', () => {
    const result = invitationAnswerSchema.safeParse({
      invitation_id: 'not-a-uuid',
      source: 'club',
      answer: 'maybe',
    });
    expect(result.success ? {} : firstErrorPerField(result.error)).toEqual({
      invitation_id: 'Invitation not found.',
      source: 'Invitation not found.',
      answer: 'The answer must be accept or reject.',
    });
  });
});
