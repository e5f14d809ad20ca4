/**
 * The roles page's words: what each organization permission lets its holders do, the checks a
 * role passes before it is saved, and what the database's refusals mean to a person.
 */
import { ORG_PERMISSIONS, type OrgPermission } from '@shortlane/shared/permissions.ts';
import { ApiError } from '../../data/unwrap.ts';

export const PERMISSION_LABELS: Record<OrgPermission, { label: string; description: string }> = {
  teams: { label: 'Teams', description: 'Create teams and manage every team.' },
  subscriptions: { label: 'Subscriptions', description: "Manage the organization's plan." },
  invitations: { label: 'Invitations', description: 'Invite people and withdraw invitations.' },
  members: { label: 'Members', description: 'Add people to teams and change their team role.' },
  domains: { label: 'Domains', description: "Add and manage the organization's domains." },
  profile: { label: 'Profile', description: "Change the organization's name, slug and photo." },
  users: { label: 'Users', description: 'Change the roles of organization users and remove them.' },
  roles: { label: 'Roles', description: 'Create, change and delete roles.' },
  supervisor: {
    label: 'Supervisor',
    description: 'Create links in any team and see the organization dashboard.',
  },
  sso: { label: 'SSO', description: 'Set up single sign-on.' },
  audit: { label: 'Audit', description: 'Read the audit trail.' },
};

/** Permissions in the spec's order, whatever order they were ticked in. */
export const orderedPermissions = (picked: readonly string[]): OrgPermission[] =>
  ORG_PERMISSIONS.filter((permission) => picked.includes(permission));

export function roleNameError(name: string, otherNames: readonly string[]): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'The name field is required.';
  if (trimmed.length > 100) return 'The name may not be greater than 100 characters.';
  if (otherNames.some((other) => other.toLowerCase() === trimmed.toLowerCase()))
    return 'The name has already been taken.';
  return null;
}

/** A refused write as the page says it. */
export function roleErrorMessage(error: unknown): string {
  const code =
    error instanceof ApiError ? (error.body as { code?: string } | null)?.code : undefined;
  if (code === '23505') return 'The name has already been taken.';
  if (code === '23503')
    return 'People still hold this role. Give them another role before deleting it.';
  if (
    code === 'PGRST116' ||
    code === '42501' ||
    (error instanceof ApiError && error.status === 403)
  )
    return 'You are not allowed to change roles in this organization.';
  return 'The role could not be saved. Try again.';
}
