import assert from 'node:assert/strict';
import { invitationLink, invitationMail } from './message.ts';

const issued = {
  token: 'f'.repeat(64),
  email: 'ann@example.com',
  source: 'team' as const,
  organization_name: 'Acme',
  team_name: '<Growth>',
  inviter_name: 'Olga',
  role_name: 'member',
  expires_at: '2026-12-04T10:00:00Z',
};

Deno.test('the invitation mail names the place, the role and the link; HTML is escaped', () => {
  const link = invitationLink('https://shortlane.app', issued.token);
  assert.equal(link, `https://shortlane.app/app/invitation/${'f'.repeat(64)}`);
  const mail = invitationMail(issued, link);
  assert.equal(mail.to, 'ann@example.com');
  assert.equal(mail.subject, 'Olga invited you to the team <Growth> of Acme on Shortlane');
  assert.match(mail.text, /join the team <Growth> of Acme as member/);
  assert.ok(mail.text.includes(link));
  assert.match(mail.html, /the team &lt;Growth&gt; of Acme as member/);
  assert.ok(!mail.html.includes('<Growth>'));
  assert.match(mail.text, /works once and until Fri, 04 Dec 2026 10:00:00 GMT/);
});
