import { useMutation } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';

/** The bucket the bulk-import function writes result CSVs to (migration 20261122001200). */
const RESULTS_BUCKET = 'exports';

/** A job's result CSV from storage (only its owner may read it), for the browser to save. */
export function useBulkResultDownload() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (path: string): Promise<Blob> => {
      const { data, error } = await supabase.storage.from(RESULTS_BUCKET).download(path);
      if (error) throw error;
      return data;
    },
  });
}
