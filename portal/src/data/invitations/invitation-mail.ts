import type { TablesInsert } from '@shortlane/shared/database.types.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap } from '../unwrap.ts';

/**
 * Mails an invitation's link (the invitation-mail function; the database decides who may). The
 * invitation stands whatever happens to the mail, so a failure answers false rather than
 * throwing: the page says the mail was not sent, and the invitee still sees the invitation in
 * the envelope once signed in.
 */
export async function mailInvitation(
  supabase: PortalSupabase,
  invitationId: string,
): Promise<boolean> {
  const { error } = await supabase.functions.invoke('invitation-mail', {
    method: 'POST',
    body: { invitation_id: invitationId },
  });
  return error == null;
}

/** Creates an invitation (under the invitations table's policies), then mails its link. */
export async function inviteByEmail(
  supabase: PortalSupabase,
  invitation: {
    email: string;
    inviterId: string;
    target:
      | { kind: 'team'; teamId: string; role: string }
      | { kind: 'organization'; organizationId: string; roleId: string };
  },
): Promise<{ id: string; mailed: boolean }> {
  const { target } = invitation;
  const row: TablesInsert<'invitations'> = {
    email: invitation.email,
    inviter_id: invitation.inviterId,
    ...(target.kind === 'team'
      ? { team_id: target.teamId, team_role: target.role }
      : { organization_id: target.organizationId, organization_role_id: target.roleId }),
  };
  const created = unwrap<{ id: string }>(
    await supabase.from('invitations').insert(row).select('id').single(),
  );
  return { id: created.id, mailed: await mailInvitation(supabase, created.id) };
}
