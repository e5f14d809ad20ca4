import type { CreatedItem } from '@shortlane/shared/created-link.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { invalidateAfterLinkCreation } from './links-create-invalidation.ts';
import { useUserId } from './use-user-id.ts';

/**
 * Where a new link goes, as the create routes of link-creation 7 address it:
 * - `own`: the caller's personal workspace, or a standalone team named by slug;
 * - `organization-team` / `organization-personal`: a team of an organization, or the caller's
 *   own links in organization mode.
 */
export type LinkWorkspace =
  | { kind: 'own'; team: string | null }
  | { kind: 'organization-team'; organization: string; team: string }
  | { kind: 'organization-personal'; organization: string };

const segment = encodeURIComponent;

/** The route below a function's name for a workspace, ending in `suffix` (url/create, bulk/csv). */
export function workspaceRoute(workspace: LinkWorkspace, suffix: string): string {
  switch (workspace.kind) {
    case 'own':
      return suffix;
    case 'organization-team':
      return `organization/${segment(workspace.organization)}/team/${segment(workspace.team)}/${suffix}`;
    case 'organization-personal':
      return `organization/${segment(workspace.organization)}/personal/${suffix}`;
  }
}

/** The body team: only the `own` route reads it; the organization routes name it in the path. */
export function bodyTeam(workspace: LinkWorkspace): string | null {
  if (workspace.kind === 'own') return workspace.team;
  return workspace.kind === 'organization-team' ? workspace.team : null;
}

/** The form fields the `links` function reads (request.ts), already normalised by the form. */
export interface LinkCreateBody {
  url: string;
  domain: string;
  alias: string | null;
  description: string | null;
  tags: string[];
  /** UTC ISO timestamp, or null for no expiry. */
  expires_at: string | null;
  anti_robot_token: string | null;
  /** Guests only: the CCPA box. */
  ccpa_accepted?: boolean;
}

export interface CreateLinkRequest {
  workspace: LinkWorkspace;
  body: LinkCreateBody;
}

function isCreatedItems(value: unknown): value is CreatedItem[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as CreatedItem).url === 'string' &&
        Array.isArray((item as CreatedItem).aliases),
    )
  );
}

/**
 * POST url/create (or an organization variant) on the `links` function. A refusal rejects with
 * supabase-js' FunctionsHttpError, whose response the form reads for its field errors
 * (lib/forms.ts formErrorsFromError); the global response handler has already seen it.
 */
export async function createLink(
  supabase: PortalSupabase,
  { workspace, body }: CreateLinkRequest,
): Promise<CreatedItem[]> {
  const { data, error } = await supabase.functions.invoke<unknown>(
    `links/${workspaceRoute(workspace, 'url/create')}`,
    { method: 'POST', body: { ...body, team: bodyTeam(workspace) } },
  );
  if (error) throw error;
  if (!isCreatedItems(data) || data.length === 0) {
    throw new Error('The links function answered without the created link.');
  }
  return data;
}

export function useCreateLinkMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: (request: CreateLinkRequest) => createLink(supabase, request),
    onSuccess: () => invalidateAfterLinkCreation(queryClient, userId),
  });
}
