import { describe, expect, it } from 'vitest';
import { organizationInvitationSchema, supportRequestSchema } from './organization-users.ts';

describe('organizationInvitationSchema', () => {
  it('trims the address and needs a role id', () => {
    const roleId = '6f1c1d3e-5a1b-4c1d-9e2f-0a1b2c3d4e5f';
    expect(organizationInvitationSchema.parse({ email: ' ann@example.com ', roleId })).toEqual({
      email: 'ann@example.com',
      roleId,
    });
    const refused = organizationInvitationSchema.safeParse({ email: 'nope', roleId: '' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      'The email must be a valid email address.',
      'The selected role is invalid.',
    ]);
  });
});

describe('supportRequestSchema', () => {
  it('needs a subject and a message within the table limits', () => {
    expect(supportRequestSchema.parse({ subject: ' Help ', message: 'Links are down' })).toEqual({
      subject: 'Help',
      message: 'Links are down',
    });
    const refused = supportRequestSchema.safeParse({ subject: ' ', message: 'x'.repeat(5001) });
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      'The subject field is required.',
      'The message must not be greater than 5000 characters.',
    ]);
  });
});
