import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { invalidateAfterLinkCreation } from './links-create-invalidation.ts';
import { bodyTeam, workspaceRoute, type LinkWorkspace } from './links-create-mutation.ts';
import { useUserId } from './use-user-id.ts';

/** The bulk form (link-creation 3): file, domain, withHeader, and the workspace it goes to. */
export interface BulkImportRequest {
  workspace: LinkWorkspace;
  file: File;
  domain: string;
  withHeader: boolean;
}

/** The spec's bulk status response (`total`), with the job it scheduled. */
export interface BulkImportAnswer {
  total: number;
  jobId: string;
}

/** POST bulk/csv (or an organization variant) on the `bulk-import` function, as multipart. */
export async function importBulk(
  supabase: PortalSupabase,
  request: BulkImportRequest,
): Promise<BulkImportAnswer> {
  const form = new FormData();
  form.set('file', request.file, request.file.name);
  form.set('domain', request.domain);
  form.set('withHeader', String(request.withHeader));
  const team = bodyTeam(request.workspace);
  if (request.workspace.kind === 'own' && team != null) form.set('team', team);
  const { data, error } = await supabase.functions.invoke<unknown>(
    `bulk-import/${workspaceRoute(request.workspace, 'bulk/csv')}`,
    { method: 'POST', body: form },
  );
  if (error) throw error;
  const answer = data as { total?: unknown; job_id?: unknown } | null;
  if (typeof answer?.total !== 'number' || typeof answer.job_id !== 'string') {
    throw new Error('The bulk-import function answered without the scheduled batch.');
  }
  return { total: answer.total, jobId: answer.job_id };
}

export function useBulkImportMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: (request: BulkImportRequest) => importBulk(supabase, request),
    onSuccess: () => invalidateAfterLinkCreation(queryClient, userId),
  });
}
