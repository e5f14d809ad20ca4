/**
 * The invitation mail: where to, by whom, with which role, and the link that answers it.
 * Everything a user typed (names) is escaped in the HTML part.
 */
import type { OutgoingMail } from '../_shared/mail/sender.ts';

export interface IssuedInvitation {
  token: string;
  email: string;
  source: 'organization' | 'team';
  organization_name: string | null;
  team_name: string | null;
  inviter_name: string | null;
  role_name: string | null;
  expires_at: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

/** The portal page that shows and answers the invitation (portal route `invitation`). */
export const invitationLink = (portalOrigin: string, token: string) =>
  `${portalOrigin}/app/invitation/${encodeURIComponent(token)}`;

export function invitationMail(invitation: IssuedInvitation, link: string): OutgoingMail {
  const place =
    invitation.source === 'team'
      ? `the team ${invitation.team_name ?? ''}${invitation.organization_name ? ` of ${invitation.organization_name}` : ''}`
      : `the organization ${invitation.organization_name ?? ''}`;
  const inviter = invitation.inviter_name ?? 'Someone';
  const role = invitation.role_name ? ` as ${invitation.role_name}` : '';
  const expires = new Date(invitation.expires_at).toUTCString();
  const subject = `${inviter} invited you to ${place} on Shortlane`;
  const text = [
    `${inviter} invited you to join ${place}${role} on Shortlane.`,
    '',
    `Accept or reject the invitation: ${link}`,
    '',
    `If you have no Shortlane account yet, the link lets you sign up with ${invitation.email} first.`,
    `The link works once and until ${expires}.`,
  ].join('\n');
  const html = `<p>${escapeHtml(inviter)} invited you to join ${escapeHtml(place)}${escapeHtml(role)} on Shortlane.</p>
<p><a href="${escapeHtml(link)}">Answer the invitation</a></p>
<p>If you have no Shortlane account yet, the link lets you sign up with ${escapeHtml(invitation.email)} first. The link works once and until ${escapeHtml(expires)}.</p>`;
  return { to: invitation.email, subject, text, html };
}
